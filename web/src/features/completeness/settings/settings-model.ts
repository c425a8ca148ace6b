import { COMPLETENESS_HOURS_MAX, COMPLETENESS_HOURS_MIN } from '#shared/constants/completeness.ts';
import type { AccountDefaults, AccountDefaultsRequest } from '#shared/contract/entities/account.ts';
import { numberBetween } from '#shared/contract/messages.ts';

/** The two completeness hours as the form holds them: a number, or '' while a field is blank. */
export interface CompletenessHoursValues {
  completeness_grace_hours: number | '';
  silent_device_hours: number | '';
}

export const HOURS_FIELD_PATHS = { completeness_grace_hours: 'body.completeness_grace_hours', silent_device_hours: 'body.silent_device_hours' } as const;

export function hoursValuesOf(defaults: AccountDefaults): CompletenessHoursValues {
  return { completeness_grace_hours: defaults.completeness_grace_hours, silent_device_hours: defaults.silent_device_hours };
}

/** What the form refuses before sending, one `path: message` line each, as the server would say it. */
export function hoursProblems(values: CompletenessHoursValues): string[] {
  return (Object.keys(HOURS_FIELD_PATHS) as Array<keyof CompletenessHoursValues>).flatMap((field) => {
    const value = values[field];
    const ok = value !== '' && Number.isInteger(value) && value >= COMPLETENESS_HOURS_MIN && value <= COMPLETENESS_HOURS_MAX;
    return ok ? [] : [`${HOURS_FIELD_PATHS[field]}: ${numberBetween(COMPLETENESS_HOURS_MIN, COMPLETENESS_HOURS_MAX)}`];
  });
}

/**
 * The PUT that changes only the two hours: `PUT account/defaults` replaces every default, so the stored user group,
 * role and CIDR ranges are sent back as they were read.
 */
export function hoursRequestOf(stored: AccountDefaults, values: CompletenessHoursValues): AccountDefaultsRequest {
  return {
    ...(stored.user_group === undefined ? {} : { user_group: stored.user_group }),
    ...(stored.role === undefined ? {} : { role: stored.role }),
    cidr_ranges: stored.cidr_ranges,
    completeness_grace_hours: Number(values.completeness_grace_hours),
    silent_device_hours: Number(values.silent_device_hours),
  };
}
