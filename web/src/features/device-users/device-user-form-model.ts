import type { Service } from '#shared/constants/devices.ts';
import { DeviceUserRequest, type DeviceUser } from '#shared/contract/entities/device-users.ts';
import { DeviceUserReference } from '#shared/contract/fields.ts';
import { formatIssues } from '#shared/contract/messages.ts';
import { SERVICE_LABELS } from '../../lib/labels.ts';
import type { z } from 'zod';

/** What the device user form holds while it is edited (strings as typed; parsed on submit). */
export interface DeviceUserFormValues {
  reference: string;
  group: string;
  services: Service[];
  expectedDeviceCount: string;
  email: string;
  firstName: string;
  surname: string;
  isActive: boolean;
}

export const EMPTY_DEVICE_USER_FORM: DeviceUserFormValues = {
  reference: '',
  group: '',
  services: [],
  expectedDeviceCount: '1',
  email: '',
  firstName: '',
  surname: '',
  isActive: true,
};

/** The form filled from a stored device user (edit). */
export function formValuesOf(user: DeviceUser): DeviceUserFormValues {
  return {
    reference: user.device_user_reference,
    group: user.group ?? '',
    services: [...user.services],
    expectedDeviceCount: String(user.expected_device_count),
    email: user.email ?? '',
    firstName: user.first_name ?? '',
    surname: user.surname ?? '',
    isActive: user.is_active,
  };
}

export type DeviceUserFormResult =
  | { ok: true; reference: string; body: z.input<typeof DeviceUserRequest> }
  | { ok: false; lines: string[] };

/**
 * Checks the form with the contract's own schemas, so the user reads the same `path: message` lines the server
 * would send (paths `params.device_user_reference` and `body.<field>`), before anything is sent.
 */
export function checkDeviceUserForm(values: DeviceUserFormValues): DeviceUserFormResult {
  const lines: string[] = [];
  const reference = DeviceUserReference.safeParse(values.reference);
  if (!reference.success) lines.push(...formatIssues(reference.error, 'params.device_user_reference'));
  const count = values.expectedDeviceCount.trim();
  const body = {
    group: values.group,
    services: values.services,
    expected_device_count: count === '' ? undefined : Number(count),
    email: values.email.trim(),
    first_name: values.firstName,
    surname: values.surname,
    is_active: values.isActive,
  };
  const parsed = DeviceUserRequest.safeParse(body);
  if (!parsed.success) lines.push(...formatIssues(parsed.error, 'body'));
  if (lines.length > 0 || !parsed.success) return { ok: false, lines: firstPerPath(lines) };
  return { ok: true, reference: values.reference, body: parsed.data };
}

/** One line per field: an empty field fails its length and its pattern, and the first says enough. */
function firstPerPath(lines: readonly string[]): string[] {
  const seen = new Set<string>();
  return lines.filter((line) => {
    const path = line.slice(0, line.indexOf(': '));
    if (seen.has(path)) return false;
    seen.add(path);
    return true;
  });
}

/** "Ada Lovelace", else the reference: how a device user is named on screen. */
export function deviceUserName(user: Pick<DeviceUser, 'first_name' | 'surname' | 'device_user_reference'>): string {
  const name = [user.first_name, user.surname].filter((part) => part !== undefined && part !== '').join(' ');
  return name === '' ? user.device_user_reference : name;
}

/** The request that offboards (false) or re-onboards (true) a user, keeping every other field. */
export function activationBody(user: DeviceUser, isActive: boolean): DeviceUserFormResult {
  return checkDeviceUserForm({ ...formValuesOf(user), isActive });
}

/** "Calls", "SMS": a service as the screens name it (the portal's one label map, lib/labels.ts). */
export function serviceLabel(service: Service): string {
  return SERVICE_LABELS[service];
}
