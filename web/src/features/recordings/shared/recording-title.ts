import type { Payload } from '#shared/contract/entities/payloads.ts';
import { formatDateTime, formatDuration } from '../../../lib/format.ts';
import { PAYLOAD_TYPE_LABELS } from './labels.ts';

/**
 * What a recording is called on every screen: who recorded it, with whom, what and when, in words, never by its
 * reference. "Call · Alice Archer → Northwind Trading · 27 Nov 2026, 07:59 · 0:10". The device user's name and the
 * device's model and number come with the recording (the API names them when it is read); the other parties' names
 * come from the meta, which only the detail opens, so a list names them by number.
 */

type Named = Pick<
  Payload,
  'payload_type' | 'payload_time' | 'payload_duration' | 'meta' | 'second_party_numbers' | 'device_user_name' | 'device_model' | 'device_phone_number'
>;

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The device in words: "Pixel 8 · +447700900101", either part alone, or undefined when the record holds neither. */
export function deviceLabel(device: { model?: string | undefined; phone_number?: string | undefined }): string | undefined {
  const parts = [text(device.model), text(device.phone_number)].filter((part) => part !== undefined);
  return parts.length === 0 ? undefined : parts.join(' · ');
}

/** Who recorded it: the device user's name, else the device in words, else "an unassigned device". */
export function recorderOf(payload: Named): string {
  return (
    text(payload.device_user_name) ??
    deviceLabel({ model: payload.device_model, phone_number: payload.device_phone_number }) ??
    'an unassigned device'
  );
}

/** The recording's length in seconds: the plain list attribute, else its meta (calls: payload_full_duration). */
export function lengthOfRecording(payload: Pick<Payload, 'payload_duration' | 'meta'>): number | undefined {
  return number(payload.payload_duration) ?? number(payload.meta?.payload_full_duration) ?? number(payload.meta?.payload_duration);
}

interface Counterpart {
  name: string;
  direction?: string;
}

/** The other parties in words (contact name, else number), with their direction when the meta gives it. */
function counterparts(payload: Named): Counterpart[] {
  const meta = payload.meta;
  const parties = [
    ...(Array.isArray(meta?.second_parties) ? meta.second_parties : []),
    ...(Array.isArray(meta?.message_parties) ? meta.message_parties : []),
    ...(meta?.second_party !== undefined ? [meta.second_party] : []),
  ].filter((party): party is Record<string, unknown> => typeof party === 'object' && party !== null);
  const fromMeta = parties
    .map((party) => {
      const name = text(party.contact_name) ?? text(party.phone_number);
      const direction = text(party.direction) ?? text(meta?.direction);
      return name === undefined ? undefined : { name, ...(direction === undefined ? {} : { direction }) };
    })
    .filter((party) => party !== undefined);
  if (fromMeta.length > 0) return fromMeta;
  return (payload.second_party_numbers ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((name) => ({ name }));
}

/** "Northwind Trading", "Northwind Trading and 2 others". */
export function otherPartiesText(payload: Named): string | undefined {
  const others = counterparts(payload);
  const first = others[0];
  if (first === undefined) return undefined;
  return others.length === 1 ? first.name : `${first.name} and ${others.length - 1} ${others.length === 2 ? 'other' : 'others'}`;
}

/**
 * Who with whom: "Alice Archer → Northwind Trading" when she called or wrote, "Northwind Trading → Alice Archer" when
 * they did, "Alice Archer with +447700900555" when the direction is not known (a list, which has no meta), and just
 * "Alice Archer" when nobody else took part (an interview, a photo).
 */
export function partiesLine(payload: Named): string {
  const recorder = recorderOf(payload);
  const others = otherPartiesText(payload);
  if (others === undefined) return recorder;
  const directions = new Set(counterparts(payload).map((party) => party.direction));
  if (directions.size === 1 && directions.has('O')) return `${recorder} → ${others}`;
  if (directions.size === 1 && directions.has('I')) return `${others} → ${recorder}`;
  return `${recorder} with ${others}`;
}

/** The recording's name: "Call · Alice Archer → Northwind Trading · 27 Nov 2026, 07:59 · 0:10". */
export function recordingTitle(payload: Named): string {
  const when = payload.payload_time ?? text(payload.meta?.payload_time);
  const length = lengthOfRecording(payload);
  return [
    PAYLOAD_TYPE_LABELS[payload.payload_type],
    partiesLine(payload),
    when === undefined ? undefined : formatDateTime(when),
    length === undefined ? undefined : formatDuration(length),
  ]
    .filter((part) => part !== undefined)
    .join(' · ');
}

/** "Call recorded by Alice Archer on Pixel 8 · +447700900101." (the device part only when the record names it). */
export function recordedOn(payload: Named): string {
  const device = deviceLabel({ model: payload.device_model, phone_number: payload.device_phone_number });
  const by = text(payload.device_user_name);
  const what = PAYLOAD_TYPE_LABELS[payload.payload_type];
  if (by === undefined) return device === undefined ? `${what} from a device with no user assigned.` : `${what} recorded on ${device}.`;
  return `${what} recorded by ${by}${device === undefined ? '' : ` on ${device}`}.`;
}
