import type { MantineColor } from '@mantine/core';
import type { SupervisionHistoryEvent, SupervisionItemState } from '#shared/constants/supervision.ts';
import type { SupervisionHit, SupervisionItem } from '#shared/contract/entities/supervision.ts';

/** The supervised person by name as the item kept it; the device user reference only when no name was known. */
export function personOf(item: Pick<SupervisionItem, 'device_user_name' | 'device_user_reference'>): string {
  return item.device_user_name ?? item.device_user_reference ?? 'Unknown person';
}

/** Why an item is in the queue, in one line: each policy with its terms, a sampling hit as "sampled". */
export function hitSummary(hits: readonly SupervisionHit[]): string {
  const byPolicy = new Map<string, string[]>();
  for (const hit of hits) {
    const terms = byPolicy.get(hit.policy_reference) ?? [];
    const what = hit.kind === 'Sampling' ? 'sampled' : `“${hit.term ?? ''}”`;
    if (!terms.includes(what)) terms.push(what);
    byPolicy.set(hit.policy_reference, terms);
  }
  return [...byPolicy].map(([policy, terms]) => `${policy}: ${terms.join(', ')}`).join('; ');
}

export const STATE_COLOURS: Record<SupervisionItemState, MantineColor> = {
  Open: 'blue',
  Claimed: 'violet',
  Escalated: 'orange',
  Closed: 'gray',
};

/** What each history entry records, in words. */
export const HISTORY_EVENT_LABELS: Record<SupervisionHistoryEvent, string> = {
  raise: 'Raised',
  hit: 'New hit',
  claim: 'Claimed',
  release: 'Released',
  assign: 'Assigned',
  escalate: 'Escalated',
  close: 'Closed',
  reopen: 'Reopened',
};

/**
 * Is the item about the signed-in person's own communications: the supervised device user has their e-mail
 * (compared case-insensitively, as the server does)? Unknown on either side is not "own": the server still refuses.
 */
export function isOwnCommunication(deviceUserEmail: string | undefined, signedInEmail: string | undefined): boolean {
  if (deviceUserEmail === undefined || signedInEmail === undefined) return false;
  const a = deviceUserEmail.trim().toLowerCase();
  return a !== '' && a === signedInEmail.trim().toLowerCase();
}
