import type { SupportAccessApprovalState } from '#shared/constants/account.ts';
import { APPROVAL_STATE_LABELS } from '../../lib/labels.ts';

/** en-GB words for the approval states (the wire spells `canceled`): the portal's one label map. */
export const STATE_LABELS = APPROVAL_STATE_LABELS;

export const STATE_COLOURS: Record<SupportAccessApprovalState, string> = {
  approved: 'green',
  pending: 'yellow',
  rejected: 'red',
  revoked: 'red',
  expired: 'gray',
  canceled: 'gray',
};

const HOUR_MS = 3_600_000;
const CHOICES = [1, 4, 8, 24, 72] as const;

/**
 * How long an approval may last: as requested, or a shorter period from now. Periods that would end after the
 * requested expiry are not offered (the server refuses them), nor is anything once the requested expiry has passed.
 */
export function approvalChoices(requestedExpiry: string, now: number): { value: string; hours: number | undefined }[] {
  const requested = Date.parse(requestedExpiry);
  if (Number.isNaN(requested) || requested <= now) return [];
  return [
    { value: 'requested', hours: undefined },
    ...CHOICES.filter((hours) => now + hours * HOUR_MS < requested).map((hours) => ({ value: String(hours), hours })),
  ];
}

/** The approval expiry to send for a choice; undefined keeps the requested one (the server's default). */
export function approvalExpiryOf(choice: string, now: number): string | undefined {
  const hours = Number(choice);
  return choice === 'requested' || !Number.isFinite(hours) ? undefined : new Date(now + hours * HOUR_MS).toISOString();
}

/** "1 hour", "3 days". */
export function durationLabel(hours: number): string {
  if (hours % 24 === 0) return `${hours / 24} ${hours === 24 ? 'day' : 'days'}`;
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}
