import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/**
 * Rows of sample legacy exports (docs/migration-format.md), as lines of text, generated one at a time so a file of any
 * size is written in constant memory. Deterministic: the same options give the same bytes.
 */

const HEADER = { kind: 'verity-legacy-export', version: 1, exported_at: '2026-01-31T23:00:00Z', source: 'sample legacy platform' };

/** A small PCM WAV (8 kHz, 16-bit mono) of a deterministic tone, `bytes` long at least 44. */
export function sampleWav(seed: number, bytes: number): Buffer {
  const dataBytes = Math.max(2, bytes - 44) & ~1;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(8000, 24);
  wav.writeUInt32LE(16000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(dataBytes, 40);
  const frequency = 200 + (seed % 50) * 10;
  for (let sample = 0; sample < dataBytes / 2; sample += 1) {
    wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * frequency * sample) / 8000)), 44 + sample * 2);
  }
  return wav;
}

/** Deterministic bytes that are not audio (photos, videos, messages' media), `bytes` long. */
export function sampleBytes(seed: number, bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  let state = (seed * 2654435761) >>> 0 || 1;
  for (let at = 0; at < bytes; at += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[at] = state & 0xff;
  }
  return out;
}

/**
 * A real picture (an 8×8 PNG of one colour from `seed`), so a migrated photo shows as an image in the portal rather
 * than as a broken one: browsers refuse bytes that are not an image.
 */
export function samplePng(seed: number): Buffer {
  const side = 8;
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const check = Buffer.alloc(4);
    check.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, check]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, no interlace
  const colour = [(seed * 67) & 0xff, (seed * 131) & 0xff, (seed * 199) & 0xff];
  const row = Buffer.from([0, ...Array.from({ length: side }, () => colour).flat()]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: side }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** A time `minutes` after 2024-01-01 (UTC, as the format writes it). */
function timeAt(minutes: number): string {
  return new Date(Date.UTC(2024, 0, 1) + minutes * 60_000).toISOString().replace('.000Z', 'Z');
}

function mediaOf(bytes: Buffer, contentType: string) {
  return { checksum: sha256(bytes), media: { content_type: contentType, data: bytes.toString('base64') } };
}

const number = (index: number) => `+4477009${String(index % 100000).padStart(5, '0')}`;

function recordingRow(index: number, deviceIndex: number, mediaBytes: number) {
  const kinds = ['Call', 'SMS', 'Interview', 'Photo', 'Call', 'MMS', 'Video', 'Call'] as const;
  const type = kinds[index % kinds.length] ?? 'Call';
  const time = timeAt(index * 7);
  const base = { payload_time: time, timezone: 'Europe/London', imeis: [String(350000000000000 + deviceIndex)] };
  const meta =
    type === 'Call'
      ? { ...base, payload_full_duration: 30 + (index % 600), second_parties: [{ phone_number: number(index), direction: index % 2 === 0 ? 'I' : 'O', duration: 30 + (index % 600) }] }
      : type === 'SMS' || type === 'MMS'
        ? { ...base, direction: index % 2 === 0 ? 'I' : 'O', thread_id: `thread-${deviceIndex}`, length: 40, message_parties: [{ phone_number: number(index) }] }
        : { ...base, payload_duration: 10 + (index % 120), payload_notes: `Sample ${type.toLowerCase()} ${index}` };
  // One recording in twenty was never uploaded from the phone: the legacy platform knows it, without media.
  const recorded = index % 20 === 19;
  const media = type === 'Call' || type === 'Interview' ? sampleWav(index, mediaBytes) : sampleBytes(index, mediaBytes);
  return {
    kind: 'recording',
    legacy_payload_reference: `legacy-rec-${String(index).padStart(8, '0')}`,
    payload_type: type,
    legacy_state: recorded ? 'Recorded' : 'Processed',
    device_reference: `legacy-dev-${String(deviceIndex).padStart(6, '0')}`,
    meta,
    ...(recorded ? {} : { uploaded_at: timeAt(index * 7 + 3), legacy_processed_time: timeAt(index * 7 + 4) }),
    ...(recorded ? {} : mediaOf(media, type === 'Call' || type === 'Interview' ? 'audio/wav' : 'application/octet-stream')),
  };
}

export interface SampleOptions {
  /** Lines after the header (at least 4: a group, a user, a device, a recording). */
  rows: number;
  /** Bytes of each recording's media (default 1024). */
  mediaBytes?: number;
}

/**
 * A sample export of `rows` rows: one group per 2,000 rows, one device user (and one device) per 50, the rest
 * recordings of every kind, one in twenty Recorded without media; a user in ten offboarded, a device in ten
 * deactivated.
 */
export function* sampleExportLines(options: SampleOptions): Generator<string> {
  const rows = Math.max(4, Math.floor(options.rows));
  const mediaBytes = Math.max(64, options.mediaBytes ?? 1024);
  const groups = Math.max(1, Math.ceil(rows / 2000));
  const users = Math.max(1, Math.floor(rows / 50));
  const recordings = rows - groups - 2 * users;
  yield line(HEADER);
  for (let g = 0; g < groups; g += 1) yield line({ kind: 'group', group_reference: `legacy-group-${g}` });
  for (let u = 0; u < users; u += 1) {
    const active = u % 10 !== 2;
    yield line({
      kind: 'device_user',
      device_user_reference: `legacy-user-${String(u).padStart(6, '0')}`,
      group: `legacy-group-${u % groups}`,
      services: ['calls', 'sms', 'mms', 'interviews', 'photos', 'videos'],
      email: `legacy.user.${u}@example.test`,
      first_name: 'Sample',
      surname: `User ${u}`,
      is_active: active,
      onboard_date: timeAt(-100_000 + u),
      ...(active ? {} : { offboard_date: timeAt(-1000 + u) }),
    });
  }
  for (let d = 0; d < users; d += 1) {
    const deactivated = d % 10 === 2;
    yield line({
      kind: 'device',
      device_reference: `legacy-dev-${String(d).padStart(6, '0')}`,
      device_user_reference: `legacy-user-${String(d).padStart(6, '0')}`,
      legacy_phone_number: number(90000 + d),
      imeis: [String(350000000000000 + d)],
      is_deactivated: deactivated,
      activated_at: timeAt(-90_000 + d),
      ...(deactivated ? { deactivation_date: timeAt(-500 + d) } : {}),
      model: 'Legacy Phone 7',
      os_version: '13',
      app_version: '4.2.0',
    });
  }
  for (let r = 0; r < recordings; r += 1) yield line(recordingRow(r, r % users, mediaBytes));
}

// Split so this source never carries the whole test signature (desktop antivirus would flag it).
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$' + 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

/** References the crafted export names that Verity must already manage itself (a test or a person creates them). */
export const CRAFTED_PLATFORM = { group: 'verity-managed', deviceUser: 'verity-managed-user', device: 'verity-managed-device' } as const;

/**
 * Each line of the crafted export with the result it gets when imported twice into a tenant that holds the
 * CRAFTED_PLATFORM user (onboarded) and device (activated): first with every migration switch off, then with every
 * switch on. With a file that is not an export (UnknownFile), the two runs reach every result type of the catalogue.
 */
export function craftedExport(): Array<{ line: string; first: string; second: string }> {
  const call = sampleWav(1, 2048);
  const confMedia = sampleWav(2, 2048);
  const photo = samplePng(3);
  const user = (reference: string, group: string, active: boolean) => ({
    kind: 'device_user',
    device_user_reference: reference,
    group,
    services: ['calls', 'sms', 'photos'],
    is_active: active,
    onboard_date: '2023-01-02T09:00:00Z',
    ...(active ? {} : { offboard_date: '2023-06-30T17:00:00Z' }),
  });
  const device = (reference: string, holder: string | undefined, extra: Record<string, unknown> = {}) => ({
    kind: 'device',
    device_reference: reference,
    ...(holder === undefined ? {} : { device_user_reference: holder }),
    imeis: ['356938035643809'],
    is_deactivated: false,
    activated_at: '2023-01-03T09:00:00Z',
    ...extra,
  });
  const recording = (reference: string, deviceReference: string, extra: Record<string, unknown>) => ({
    kind: 'recording',
    legacy_payload_reference: reference,
    payload_type: 'Call',
    legacy_state: 'Processed',
    device_reference: deviceReference,
    meta: { payload_time: '2024-03-01T10:00:00Z', payload_full_duration: 60, second_parties: [{ phone_number: '+447700900123', direction: 'O', duration: 60 }] },
    uploaded_at: '2024-03-01T10:05:00Z',
    legacy_processed_time: '2024-03-01T10:06:00Z',
    ...mediaOf(call, 'audio/wav'),
    ...extra,
  });
  const conference = (party: string, media: Buffer) =>
    recording('crafted-conference', 'crafted-device', {
      meta: { payload_time: '2024-03-02T11:00:00Z', payload_full_duration: 300, second_parties: [{ phone_number: party, direction: 'CC', duration: 300 }] },
      ...mediaOf(media, 'audio/wav'),
    });
  const photoMeta = { payload_time: '2024-03-03T12:00:00Z', payload_notes: 'Whiteboard after the client meeting' };
  const photoRow = (processed: boolean) => ({
    kind: 'recording',
    legacy_payload_reference: 'crafted-photo',
    payload_type: 'Photo',
    legacy_state: processed ? 'Processed' : 'Recorded',
    device_reference: 'crafted-device',
    meta: photoMeta,
    ...(processed ? mediaOf(photo, 'image/png') : {}),
  });
  const rows: Array<[unknown, string, string]> = [
    [{ kind: 'group', group_reference: 'crafted-sales' }, 'GroupAdded', 'NoChangeToGroup'],
    [{ kind: 'group', group_reference: 'crafted-sales' }, 'NoChangeToGroup', 'NoChangeToGroup'],
    // Users listed before their group: refused the first time, new (and stopped by the switches) the second.
    [user('crafted-late-active', 'crafted-late', true), 'Error', 'IgnoreOnboardingDisabled'],
    [user('crafted-late-inactive', 'crafted-late', false), 'Error', 'IgnoreOffboardingDisabled'],
    [{ kind: 'group', group_reference: 'crafted-late' }, 'GroupAdded', 'NoChangeToGroup'],
    [user('crafted-user', 'crafted-sales', true), 'UserCreatedOnboarded', 'NoChangeToUser'],
    [user('crafted-user', 'crafted-sales', true), 'NoChangeToUser', 'NoChangeToUser'],
    [user('crafted-leaver', 'crafted-sales', false), 'UserCreatedOffboarded', 'NoChangeToUser'],
    // A user offboarded later in the file: the second time, the earlier (onboarded) row disagrees with Verity.
    [user('crafted-flip-off', 'crafted-sales', true), 'UserCreatedOnboarded', 'SupersededOnboardingDisabled'],
    [user('crafted-flip-off', 'crafted-sales', false), 'UserCreatedOffboarded', 'NoChangeToUser'],
    [user('crafted-flip-on', 'crafted-sales', false), 'UserCreatedOffboarded', 'SupersededOffboardingDisabled'],
    [user('crafted-flip-on', 'crafted-sales', true), 'UserCreatedOnboarded', 'NoChangeToUser'],
    [user(CRAFTED_PLATFORM.deviceUser, CRAFTED_PLATFORM.group, true), 'UserAlreadyActiveInThePlatform', 'UserAlreadyActiveInThePlatform'],
    [device('crafted-device', 'crafted-user'), 'DeviceCreatedActivated', 'NoChangeToDevice'],
    [device('crafted-device', 'crafted-user', { imeis: ['490154203237518'] }), 'DuplicateDeviceReference', 'DuplicateDeviceReference'],
    [device('crafted-retired', 'crafted-leaver', { is_deactivated: true, deactivation_date: '2023-07-01T08:00:00Z' }), 'DeviceCreatedDeactivated', 'NoChangeToDevice'],
    [device('crafted-orphan', undefined), 'DeviceCreatedActivated', 'NoChangeToDevice'],
    [device(CRAFTED_PLATFORM.device, CRAFTED_PLATFORM.deviceUser), 'DeviceAlreadyActiveInThePlatform', 'DeviceAlreadyActiveInThePlatform'],
    [recording('crafted-call', 'crafted-device', {}), 'PayloadCreated', 'PayloadAlreadyLoaded'],
    [recording('crafted-call', 'crafted-device', {}), 'PayloadAlreadyLoaded', 'PayloadAlreadyLoaded'],
    [
      { ...recording('crafted-sms', 'crafted-device', {}), payload_type: 'SMS', legacy_state: 'Recorded', checksum: undefined, media: undefined, uploaded_at: undefined, legacy_processed_time: undefined, meta: { payload_time: '2024-03-01T12:00:00Z', direction: 'I', message_parties: [{ phone_number: '+447700900456' }] } },
      'RecordedPayloadCreated',
      'PayloadAlreadyLoaded',
    ],
    [photoRow(false), 'RecordedPayloadCreated', 'NoChangeToPayload'],
    [photoRow(true), 'PayloadUpdated', 'PayloadAlreadyLoaded'],
    [{ ...recording('crafted-call', 'crafted-device', {}), legacy_state: 'Recorded', checksum: undefined, media: undefined }, 'NoChangeToPayload', 'NoChangeToPayload'],
    // A conference call, one row per leg: the second leg adds its party, the third has other media.
    [conference('+447700900201', confMedia), 'PayloadCreated', 'PayloadAlreadyLoaded'],
    [conference('+447700900202', confMedia), 'PayloadUpdated', 'PayloadAlreadyLoaded'],
    [conference('+447700900203', sampleWav(4, 2048)), 'ConferenceCallWithMismatchingData', 'ConferenceCallWithMismatchingData'],
    [{ ...recording('crafted-lost', 'crafted-device', {}), checksum: undefined, media: undefined }, 'PayloadDataNotAvailable', 'IgnoreNewPayloadMigrationDisabled'],
    [recording('crafted-nobody', 'crafted-orphan', {}), 'PayloadWithNoMatchingUser', 'PayloadWithNoMatchingUser'],
    // A recording listed before its device: refused the first time, new (and stopped by the switch) the second.
    [recording('crafted-early', 'crafted-late-device', {}), 'Error', 'IgnoreNewPayloadMigrationDisabled'],
    [device('crafted-late-device', 'crafted-user'), 'DeviceCreatedActivated', 'NoChangeToDevice'],
    [recording('crafted-infected', 'crafted-device', mediaOf(Buffer.from(EICAR, 'latin1'), 'application/octet-stream')), 'Error', 'IgnoreNewPayloadMigrationDisabled'],
    [recording('crafted-tampered', 'crafted-device', { checksum: sha256(Buffer.from('something else')) }), 'Error', 'Error'],
  ];
  const lines = rows.map(([value, first, second]) => ({ line: line(value), first, second }));
  return [{ line: line(HEADER), first: '', second: '' }, ...lines, { line: '{"kind": "group", "group_reference": \n', first: 'Error', second: 'Error' }];
}
