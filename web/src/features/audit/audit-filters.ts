import { z } from 'zod/mini';
import { ACTION_KINDS } from '#shared/contract/action-wording.ts';
import { compactQuery, optionalDay, optionalText } from '../../lib/search-params.ts';
import type { DeviceActivityQuery } from './api/list-device-activity.ts';
import type { UserActivityQuery } from './api/list-user-activity.ts';

/** Allowed, refused, or both (unset). */
const outcome = z.catch(z.optional(z.enum(['allowed', 'refused'])), undefined);

/** The audit screen's URL: which trail, and its filters. */
export const AuditSearch = z.object({
  /** `disposals`: the retention job's disposal records, a tab the route adds when it gives one. */
  trail: z.catch(z.optional(z.enum(['users', 'devices', 'disposals'])), undefined),
  from: optionalDay,
  to: optionalDay,
  outcome,
  /** The person: their stable reference, as records name them. */
  user_id: optionalText(),
  /** The same, as links from alerts about a portal user name it (`?portal_user=`). */
  portal_user: optionalText(),
  action: optionalText(),
  /** Reads or changes. */
  kind: z.catch(z.optional(z.enum(ACTION_KINDS)), undefined),
  device_reference: optionalText(60),
  device_user_reference: optionalText(60),
  group: optionalText(),
});
export type AuditSearch = z.infer<typeof AuditSearch>;

const allowedOf = (value: AuditSearch['outcome']): { is_allowed?: 'true' | 'false' } =>
  value === undefined ? {} : { is_allowed: value === 'allowed' ? 'true' : 'false' };

export function userActivityQueryOf(search: AuditSearch): UserActivityQuery {
  return {
    ...compactQuery({ from: search.from, to: search.to, user_id: search.user_id ?? search.portal_user, action: search.action, kind: search.kind }),
    ...allowedOf(search.outcome),
  };
}

export function deviceActivityQueryOf(search: AuditSearch): DeviceActivityQuery {
  return {
    ...compactQuery({
      from: search.from,
      to: search.to,
      device_reference: search.device_reference,
      device_user_reference: search.device_user_reference,
      group: search.group,
    }),
    ...allowedOf(search.outcome),
  };
}
