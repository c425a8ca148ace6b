import type { Config } from '#core/config.ts';
import type { ObjectRetention } from '#core/ports/blob-store.ts';
import type { PayloadItem } from '#core/store/entities/payload.ts';
import type { ObjectLockFacts, RetentionPolicy } from '#shared/contract/entities/account-data.ts';

/**
 * Object Lock retention of a recording's processed object, from the tenant's policy (DESIGN.md §8; docs/decisions.md
 * "Object retention"). The object is locked until its base time plus its type's period, the longer of
 * `delete_after_days` and `destroy_after_days` (destroying is never before deleting, so that is the destroy period):
 * so the lock has always passed by the day the retention job may destroy the recording, and no one can remove the
 * object before. A type kept without end has no date to lock until, so no retention (legal holds still apply).
 */

const DAY_MS = 86_400_000;

type PayloadRule = NonNullable<RetentionPolicy['PayloadData']>[number];
type PayloadTimes = Pick<PayloadItem, 'payload_time' | 'processed_at' | 'transferred_at' | 'receipt_confirmed_at'>;

/** Days the type's objects are locked for (0: no lock). */
export function lockDays(rule: Pick<PayloadRule, 'delete_after_days' | 'destroy_after_days'> | undefined): number {
  return Math.max(rule?.delete_after_days ?? 0, rule?.destroy_after_days ?? 0);
}

/** The policy's rule for a payload type. */
export function ruleFor(policy: Pick<RetentionPolicy, 'PayloadData'>, payloadType: string): PayloadRule | undefined {
  return policy.PayloadData?.find((entry) => entry.payload_type === payloadType);
}

/**
 * The time the period counts from. A rule counting from a transfer or a receipt that has not happened yet counts from
 * processing instead (`now` while processing): both come later, so the lock is never later than the day the
 * retention job counts to.
 */
function baseTime(rule: PayloadRule, payload: PayloadTimes, now: Date): number {
  const processed = Date.parse(payload.processed_at ?? '') || now.getTime();
  switch (rule.retention_timestamp) {
    case 'payload_time':
      return Date.parse(payload.payload_time ?? '');
    case 'transferred_at':
      return Date.parse(payload.transferred_at ?? '') || processed;
    case 'receipt_confirmed_at':
      return Date.parse(payload.receipt_confirmed_at ?? '') || processed;
    default:
      return processed;
  }
}

/**
 * The retention a recording's object should have under `policy`, in `mode`; undefined when its type is kept without
 * end, its base time is unknown, or the date has passed already (nothing to lock).
 */
export function objectRetentionFor(
  policy: Pick<RetentionPolicy, 'PayloadData'>,
  payload: PayloadTimes & Pick<PayloadItem, 'payload_type'>,
  mode: ObjectRetention['mode'],
  now: Date,
): ObjectRetention | undefined {
  const rule = ruleFor(policy, payload.payload_type);
  const days = lockDays(rule);
  if (rule === undefined || days <= 0) return undefined;
  const until = baseTime(rule, payload, now) + days * DAY_MS;
  if (Number.isNaN(until) || until <= now.getTime()) return undefined;
  return { mode, retainUntil: new Date(until) };
}

/** The payload types whose lock the new policy makes longer than the old one did (their stored objects are extended). */
export function lengthenedTypes(before: Pick<RetentionPolicy, 'PayloadData'>, after: Pick<RetentionPolicy, 'PayloadData'>): string[] {
  return (after.PayloadData ?? [])
    .filter((rule) => {
      const previous = ruleFor(before, rule.payload_type);
      return lockDays(rule) > lockDays(previous) || (lockDays(rule) > 0 && previous?.retention_timestamp !== rule.retention_timestamp);
    })
    .map((rule) => rule.payload_type);
}

/** What the retention editor shows about the objects' locks (the contract's `object_lock`). */
export function objectLockFacts(config: Pick<Config, 'OBJECT_LOCK_MODE'>): ObjectLockFacts {
  const mode = config.OBJECT_LOCK_MODE;
  const strength =
    mode === 'COMPLIANCE'
      ? 'in COMPLIANCE mode: no one, not even the account owner, can shorten or remove a lock'
      : 'in GOVERNANCE mode (a test setting: an administrator allowed to bypass it could remove a lock)';
  return {
    mode,
    shorter_periods_apply_to: 'new_recordings',
    message:
      `Stored recordings are locked against deletion until the end of their retention period, ${strength}. ` +
      'A longer period extends the lock of recordings already stored; a shorter period applies to new recordings only, ' +
      'and those already stored stay locked until their current date.',
  };
}
