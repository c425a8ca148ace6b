import { describe, expect, it } from 'vitest';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { deviceLabel, partiesLine, recorderOf, recordingTitle } from './recording-title.ts';

const ULID = /[0-9A-HJKMNP-TV-Z]{26}/;

/** A listed recording with the fields every payload has, and the given ones. */
const payload = (fields: Partial<Payload>): Payload => ({
  device_reference: '01M8H78J1W54WGTAQMCE5XW2VV',
  payload_reference: '01M8H78J1W54WGTAQMCE5XW2VW',
  payload_state: 'Processed',
  payload_type: 'Call',
  is_legacy: false,
  is_late: false,
  ...fields,
});

const call = payload({
  payload_type: 'Call',
  payload_time: '2026-11-27T07:59:00Z',
  device_user_name: 'Alice Archer',
  device_model: 'Pixel 8',
  device_phone_number: '+447700900101',
  meta: {
    payload_full_duration: 9.95,
    second_parties: [{ phone_number: '+447700900555', contact_name: 'Northwind Trading', direction: 'O' }],
  },
});

describe('recording titles', () => {
  it('say what, who with whom, when and how long, by the one duration rule', () => {
    const title = recordingTitle(call);
    expect(title).toMatch(/^Call · Alice Archer → Northwind Trading · 27 Nov 2026, \d\d:59 · 0:10$/);
    expect(title).not.toMatch(ULID);
  });

  it('turn the arrow round for an incoming call and say "with" when the direction is not known', () => {
    const incoming = { ...call, meta: { second_parties: [{ phone_number: '+447700900555', direction: 'I' }] } };
    expect(partiesLine(incoming)).toBe('+447700900555 → Alice Archer');
    // A list item has no meta: the numbers, and no direction it cannot know.
    const { meta: _meta, ...withoutMeta } = call;
    const listed = { ...withoutMeta, second_party_numbers: '+447700900555,+447700900556,+447700900557', payload_duration: 62 };
    expect(recordingTitle(listed)).toMatch(/^Call · Alice Archer with \+447700900555 and 2 others · 27 Nov 2026, \d\d:59 · 1:02$/);
  });

  it('name an unassigned recording by its device, never by a reference', () => {
    const photo = payload({ payload_type: 'Photo', device_model: 'Pixel 8', device_phone_number: '+447700900101' });
    expect(recorderOf(photo)).toBe('Pixel 8 · +447700900101');
    expect(recordingTitle(photo)).toBe('Photo · Pixel 8 · +447700900101');
    expect(recordingTitle(payload({ payload_type: 'Photo' }))).toBe('Photo · an unassigned device');
  });

  it('write a device as model and number, either alone', () => {
    expect(deviceLabel({ model: 'Pixel 8', phone_number: '+447700900101' })).toBe('Pixel 8 · +447700900101');
    expect(deviceLabel({ phone_number: '+447700900101' })).toBe('+447700900101');
    expect(deviceLabel({ model: ' ' })).toBeUndefined();
  });
});
