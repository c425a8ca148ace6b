import type { Direction } from '#shared/constants/payloads.ts';

/** en-GB words for a party's direction (one map for every screen, lib/labels.ts). */
export { DIRECTION_LABELS } from '../../../lib/labels.ts';

/** One other party of a recording, as the detail page lists it. */
export interface Party {
  phoneNumber: string;
  contactName?: string;
  direction?: Direction;
  startTime?: string;
  /** Seconds. */
  duration?: number;
  connectionTime?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);
const direction = (value: unknown): Direction | undefined => (value === 'I' || value === 'O' || value === 'CC' ? value : undefined);

/**
 * The other parties in a payload's meta, whatever its form: a call's `second_parties`, a message's `message_parties`
 * (all in the message's own direction) or the older single `second_party`.
 */
export function partiesOf(meta: Record<string, unknown> | undefined): Party[] {
  if (meta === undefined) return [];
  const messageDirection = direction(meta.direction);
  const raw: Array<{ party: unknown; direction?: Direction }> = [
    ...(Array.isArray(meta.second_parties) ? meta.second_parties.map((party: unknown) => ({ party })) : []),
    ...(Array.isArray(meta.message_parties) ? meta.message_parties.map((party: unknown) => ({ party, direction: messageDirection })) : []),
    ...(meta.second_party !== undefined ? [{ party: meta.second_party, direction: messageDirection }] : []),
  ];
  const parties: Party[] = [];
  for (const { party, direction: fallback } of raw) {
    if (party === null || typeof party !== 'object') continue;
    const fields = party as Record<string, unknown>;
    const phoneNumber = text(fields.phone_number);
    if (phoneNumber === undefined) continue;
    const found: Party = { phoneNumber };
    const contactName = text(fields.contact_name);
    if (contactName !== undefined) found.contactName = contactName;
    const partyDirection = direction(fields.direction) ?? fallback;
    if (partyDirection !== undefined) found.direction = partyDirection;
    const startTime = text(fields.start_time);
    if (startTime !== undefined) found.startTime = startTime;
    if (typeof fields.duration === 'number' && Number.isFinite(fields.duration)) found.duration = fields.duration;
    const connectionTime = text(fields.connection_time);
    if (connectionTime !== undefined) found.connectionTime = connectionTime;
    parties.push(found);
  }
  return parties;
}
