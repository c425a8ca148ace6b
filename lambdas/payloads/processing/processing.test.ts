import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createLocalKeyService } from '../../core/adapters/local/local-key-service.ts';
import { createFixedClock } from '../../core/adapters/local/clocks.ts';
import { createEicarScanner } from '../../core/adapters/local/eicar-scanner.ts';
import { deviceKeysOf } from '../../device-crypto/public.ts';
import { createLogger } from '../../core/logger.ts';
import { keys, payloadObjectKey, quarantineObjectKey } from '../../core/store/keys.ts';
import { processBlobEvent } from './blob-events.ts';
import { createMemoryTable } from '../../core/testing/memory-table.ts';
import { memoryBlobs } from './memory-blobs.ts';
import { sealPayload } from '../../device-crypto/public.ts';
import { processPayload } from './processing.ts';
import { registerPayload } from './registration.ts';
import { waveformObjectKey } from './waveform-peaks.ts';
import { supervisionPolicyToItem } from '../../core/store/entities/supervision-policy.ts';

// The counted effects: the memory table does not evaluate their conditions, and what matters here is how often they run.
const effects = vi.hoisted(() => ({ metrics: 0, alerts: [] as string[] }));
vi.mock('../../metrics/record-payload-metric.ts', () => ({ recordPayloadMetric: async () => void (effects.metrics += 1) }));
vi.mock('../../alerts/raise-alert.ts', () => ({
  raiseAlert: async (_deps: unknown, _client: string, input: { subject: string }) => void effects.alerts.push(input.subject),
}));

const client = 'proc';
const deviceReference = '01J00000000000000000000DEV';
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$' + 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
const callMeta = (time = '2025-01-01T10:00:00Z') => ({
  payload_time: time,
  second_parties: [{ phone_number: '+447700900001', direction: 'O' }],
});

let table: ReturnType<typeof createMemoryTable>;
let blobs: ReturnType<typeof memoryBlobs>;
let deps: Parameters<typeof processPayload>[0] & Parameters<typeof registerPayload>[0];
let kek: Buffer;
let keyId: string;
/** Jobs the registration started (recorded, not run: each test drives processing itself). */
let started: Array<{ job: string; input: Record<string, unknown> }>;

beforeEach(async () => {
  effects.metrics = 0;
  effects.alerts = [];
  table = createMemoryTable([{ ...keys.device.key(client, deviceReference), entity: 'Device', phone_numbers: [{ phone_number: '+447700900999', slot_index: 0 }] }]);
  blobs = memoryBlobs();
  started = [];
  deps = {
    table,
    blobs,
    jobs: { start: async (job, input) => void started.push({ job, input }) },
    keys: createLocalKeyService({ dataDir: mkdtempSync(join(tmpdir(), 'processing-')) }),
    clock: createFixedClock('2025-01-02T00:00:00Z'),
    scanner: createEicarScanner(),
    logger: createLogger({ level: 'error' }),
  };
  ({ kek, kekId: keyId } = await deviceKeysOf(deps, client));
});

/** Uploads and registers one payload; `tamper` changes what is uploaded or registered. */
async function upload(
  reference: string,
  content: Buffer,
  options: { type?: 'Call' | 'SMS'; meta?: unknown; tamper?: (sealed: ReturnType<typeof sealPayload>) => void } = {},
) {
  const sealed = sealPayload({ kek, client, keyId, content, meta: options.meta ?? callMeta() });
  options.tamper?.(sealed);
  blobs.objects.set(`raw/${payloadObjectKey(client, reference)}`, sealed.ciphertext);
  await registerPayload(deps, { client, deviceReference }, { payload_reference: reference, payload_type: options.type ?? 'Call', ...sealed.registration });
  return sealed;
}
const stored = (reference: string) => table.get(keys.payload.key(client, reference));
const ref = (n: number) => `01J0000000000000000000REF${n}`;

describe('payload processing', () => {
  it('processes a sealed call: plaintext in the processed bucket, numbers indexed, metric once, even when redelivered', async () => {
    const content = randomBytes(5000);
    await upload(ref(1), content);
    expect((await stored(ref(1)))?.payload_state).toBe('Uploaded');
    const first = await processPayload(deps, client, ref(1));
    expect({ first, reason: (await stored(ref(1)))?.failure_reason }).toEqual({ first: 'Processed', reason: undefined });
    expect(await processPayload(deps, client, ref(1))).toBe('unchanged');
    const item = await stored(ref(1));
    expect(item).toMatchObject({ payload_state: 'Processed', second_party_numbers: '+447700900001', all_numbers: '+447700900001,+447700900999', is_late: false });
    expect(blobs.objects.get(`processed/${payloadObjectKey(client, ref(1))}`)?.equals(content)).toBe(true);
    // One pass: the raw object is read (and decrypted) once, for the scan, the checksum and the processed object.
    expect(blobs.reads).toEqual([`raw/${payloadObjectKey(client, ref(1))}`]);
    expect(effects.metrics).toBe(1);
    expect(effects.alerts).toEqual([]);
  });

  it('keeps the meta duration (payload_full_duration or payload_duration) as payload_duration for the comment span check', async () => {
    await upload(ref(17), randomBytes(100), { meta: { ...callMeta(), payload_full_duration: 42 } });
    expect(await processPayload(deps, client, ref(17))).toBe('Processed');
    expect((await stored(ref(17)))?.payload_duration).toBe(42);
    await upload(ref(18), randomBytes(100));
    expect(await processPayload(deps, client, ref(18))).toBe('Processed');
    expect((await stored(ref(18)))?.payload_duration).toBeUndefined();
  });

  it('writes waveform peaks beside a WAV call (flagged on the item), none for a call that is not WAV or a message', async () => {
    const samples = Buffer.alloc(16_000);
    for (let at = 0; at < samples.length; at += 2) samples.writeInt16LE(at < 8000 ? 0 : 16_384, at);
    const header = Buffer.alloc(44);
    header.write('RIFF', 0, 'ascii');
    header.writeUInt32LE(36 + samples.length, 4);
    header.write('WAVEfmt ', 8, 'ascii');
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(8000, 24);
    header.writeUInt32LE(16_000, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.write('data', 36, 'ascii');
    header.writeUInt32LE(samples.length, 40);
    await upload(ref(19), Buffer.concat([header, samples]));
    expect(await processPayload(deps, client, ref(19))).toBe('Processed');
    expect((await stored(ref(19)))?.waveform_peaks).toBe(true);
    const peaks = JSON.parse(String(blobs.objects.get(`processed/${waveformObjectKey(client, ref(19))}`)));
    expect(peaks).toMatchObject({ sample_rate: 8000, duration: 1, peaks_per_second: 100 });
    expect(peaks.peaks.slice(0, 50).every((peak: number) => peak === 0)).toBe(true);
    expect(peaks.peaks.slice(50).every((peak: number) => peak === 128)).toBe(true);
    // Only the processed object and its peaks: the raw object was still read once.
    expect(blobs.reads).toEqual([`raw/${payloadObjectKey(client, ref(19))}`]);

    await upload(ref(20), randomBytes(3000));
    await upload(ref(21), Buffer.concat([header, samples]), { type: 'SMS', meta: { payload_time: '2025-01-01T10:00:00Z', direction: 'I', message_parties: [{ phone_number: '+447700900001' }] } });
    for (const reference of [ref(20), ref(21)]) {
      expect(await processPayload(deps, client, reference)).toBe('Processed');
      expect((await stored(reference))?.waveform_peaks).toBeUndefined();
      expect(blobs.objects.has(`processed/${waveformObjectKey(client, reference)}`)).toBe(false);
    }
  });

  it('a processing killed after Scanning, then retried, ends Processed once with one metric', async () => {
    await upload(ref(2), randomBytes(3000));
    await expect(processPayload(deps, client, ref(2), { afterScanning: () => { throw new Error('killed'); } })).rejects.toThrow('killed');
    expect((await stored(ref(2)))?.payload_state).toBe('Scanning');
    expect(await processPayload(deps, client, ref(2))).toBe('Processed');
    expect(await processPayload(deps, client, ref(2))).toBe('unchanged');
    expect(effects.metrics).toBe(1);
  });

  it('an asynchronous scanner (GuardDuty on a quarantine copy): pending keeps Scanning, its result event finishes', async () => {
    // Like the AWS adapter: the first look copies the plaintext and answers pending; once "scanned", the verdict.
    const copies = new Map<string, Buffer>();
    const verdicts = new Map<string, 'clean' | 'infected'>();
    deps = {
      ...deps,
      scanner: {
        inspect: async (subject) => {
          const copyKey = quarantineObjectKey(subject.key, subject.revision);
          const verdict = verdicts.get(copyKey);
          if (verdict === 'clean') return { verdict };
          if (verdict === 'infected') return { verdict, signature: 'GuardDuty:THREATS_FOUND' };
          const parts: Buffer[] = [];
          for await (const part of await subject.body()) parts.push(part as Buffer);
          copies.set(copyKey, Buffer.concat(parts));
          return { verdict: 'pending' };
        },
      },
    };
    const content = randomBytes(3000);
    await upload(ref(13), content);
    expect(await processPayload(deps, client, ref(13))).toBe('scan-pending');
    expect((await stored(ref(13)))?.payload_state).toBe('Scanning');
    expect(blobs.objects.has(`processed/${payloadObjectKey(client, ref(13))}`)).toBe(false);
    // The quarantine copy is the whole plaintext.
    const [copyKey, copy] = [...copies][0] ?? [];
    expect(copy?.equals(content)).toBe(true);

    verdicts.set(String(copyKey), 'clean');
    const scanResult = {
      source: 'aws.guardduty',
      'detail-type': 'GuardDuty Malware Protection Object Scan Result',
      detail: { s3ObjectDetails: { bucketName: 'verity-scan', objectKey: copyKey }, scanResultDetails: { scanResultStatus: 'NO_THREATS_FOUND' } },
    };
    const events = { ...deps, config: { RAW_BUCKET: 'verity-raw', SCAN_BUCKET: 'verity-scan' } };
    // A result from another bucket names nothing.
    expect(await processBlobEvent(events, { ...scanResult, detail: { s3ObjectDetails: { bucketName: 'elsewhere', objectKey: copyKey } } })).toEqual({});
    expect(await processBlobEvent(events, scanResult)).toEqual({ [payloadObjectKey(client, ref(13))]: 'Processed' });
    expect(blobs.objects.get(`processed/${payloadObjectKey(client, ref(13))}`)?.equals(content)).toBe(true);
  });

  it('tampered ciphertext, a wrong DEK, a wrong checksum, bad meta: Failed with one alert; EICAR: Quarantined', async () => {
    await upload(ref(3), randomBytes(2000), { tamper: (sealed) => void (sealed.ciphertext[100] = (sealed.ciphertext[100] as number) ^ 1) });
    await upload(ref(4), randomBytes(2000), {
      tamper: (sealed) => void (sealed.ciphertext = sealPayload({ kek, client, keyId, content: randomBytes(2000), meta: {} }).ciphertext),
    });
    await upload(ref(5), randomBytes(2000), { tamper: (sealed) => void (sealed.registration.checksum = '0'.repeat(64)) });
    await upload(ref(6), randomBytes(10), { meta: { payload_time: '2025-01-01T10:00:00Z', second_parties: [] } });
    await upload(ref(7), Buffer.from(`header ${EICAR} trailer`), { type: 'SMS', meta: { payload_time: '2025-01-01T10:00:00Z', direction: 'I', message_parties: [{ phone_number: '+447700900002' }] } });
    const outcomes = [];
    for (const n of [3, 4, 5, 6, 7]) {
      outcomes.push(await processPayload(deps, client, ref(n)));
      expect(await processPayload(deps, client, ref(n))).toBe('unchanged');
    }
    expect(outcomes).toEqual(['Failed', 'Failed', 'Failed', 'Failed', 'Quarantined']);
    expect(effects.alerts).toEqual(['Payload Failed', 'Payload Failed', 'Payload Failed', 'Payload Failed', 'Payload Quarantined']);
    expect(effects.metrics).toBe(0);
    for (const n of [3, 4, 5, 6, 7]) expect(blobs.objects.has(`processed/${payloadObjectKey(client, ref(n))}`)).toBe(false);
  });

  it('registration is idempotent, refuses other content with 409, marks late uploads, waits for the object', async () => {
    const sealed = sealPayload({ kek, client, keyId, content: randomBytes(10), meta: callMeta('2024-12-01T00:00:00Z') });
    const body = { payload_reference: ref(8), payload_type: 'Call' as const, ...sealed.registration };
    expect(await registerPayload(deps, { client, deviceReference }, body)).toEqual({ payload_reference: ref(8), state: 'pending' });
    expect((await stored(ref(8)))?.payload_state).toBe('Recorded');
    expect(await processPayload(deps, client, ref(8))).toBe('not-uploaded');
    expect(await registerPayload(deps, { client, deviceReference }, body)).toEqual({ payload_reference: ref(8), state: 'pending' });
    await expect(registerPayload(deps, { client, deviceReference }, { ...body, checksum: 'a'.repeat(64) })).rejects.toMatchObject({ status: 409 });
    await expect(registerPayload(deps, { client, deviceReference: 'other' }, body)).rejects.toMatchObject({ status: 409 });
    await expect(registerPayload(deps, { client, deviceReference }, { ...body, payload_reference: ref(9), key_id: 'kek/other/x' })).rejects.toMatchObject({ status: 400 });
    blobs.objects.set(`raw/${payloadObjectKey(client, ref(8))}`, sealed.ciphertext);
    expect(await processPayload(deps, client, ref(8))).toBe('Processed');
    expect(await stored(ref(8))).toMatchObject({ is_late: true, uploaded_at: '2025-01-02T00:00:00.000Z' });
    // Registered before its object: nothing to start, the object's event processes it.
    expect(started).toEqual([]);
  });

  it('a registration after its object starts processing at once, and stands when the start fails', async () => {
    await upload(ref(10), randomBytes(100));
    expect(started).toEqual([{ job: 'payload-processing', input: { client, payload_reference: ref(10) } }]);
    // A repeat of the registration starts nothing more.
    const sealed = await upload(ref(11), randomBytes(100));
    await registerPayload(deps, { client, deviceReference }, { payload_reference: ref(11), payload_type: 'Call', ...sealed.registration });
    expect(started.map((run) => run.input.payload_reference)).toEqual([ref(10), ref(11)]);

    deps = { ...deps, jobs: { start: () => Promise.reject(new Error('throttled')) } };
    await upload(ref(12), randomBytes(100));
    expect(await stored(ref(12))).toMatchObject({ payload_state: 'Uploaded' });
    expect(await processPayload(deps, client, ref(12))).toBe('Processed');
  });

  it('puts the legal hold on the processed object while an active hold covers the recording, and only then', async () => {
    const holder = 'held-user';
    await table.put({ ...keys.device.key(client, deviceReference), entity: 'Device', device_reference: deviceReference, device_user_reference: holder });
    await upload(ref(20), randomBytes(100));
    expect(await processPayload(deps, client, ref(20))).toBe('Processed');
    expect(await blobs.getLegalHold('processed', payloadObjectKey(client, ref(20)))).toBe(false);

    const hold = { client, target: holder, target_type: 'DeviceUser', created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
    await table.put({ ...keys.legalHold.item(client, 'DeviceUser', holder), ...hold, is_active: true });
    await upload(ref(21), randomBytes(100));
    expect(await processPayload(deps, client, ref(21))).toBe('Processed');
    expect(await blobs.getLegalHold('processed', payloadObjectKey(client, ref(21)))).toBe(true);

    await table.put({ ...keys.legalHold.item(client, 'DeviceUser', holder), ...hold, is_active: false });
    await upload(ref(22), randomBytes(100));
    expect(await processPayload(deps, client, ref(22))).toBe('Processed');
    expect(await blobs.getLegalHold('processed', payloadObjectKey(client, ref(22)))).toBe(false);
  });

  it('raises a review item for a message holding a policy\'s term before it is Processed; a failed raise fails the run, which is retried', async () => {
    await table.put(
      supervisionPolicyToItem(client, {
        policy_reference: 'promises',
        kind: 'Lexicon',
        is_enabled: true,
        scope: { group_conditions: [], device_user_references: [], payload_types: ['SMS'] },
        terms: ['guarantee'],
        sample_minimum: 0,
        review_days: 7,
        policy_version: 1,
      }),
    );
    const smsMeta = { payload_time: '2025-01-01T10:00:00Z', direction: 'O', message_parties: [{ phone_number: '+447700900002' }] };
    await upload(ref(9), Buffer.from('We guarantee it'), { type: 'SMS', meta: smsMeta });
    const write = table.transactWrite.bind(table);
    table.transactWrite = async () => {
      throw new Error('table unavailable');
    };
    await expect(processPayload(deps, client, ref(9))).rejects.toThrow('table unavailable');
    // Not Processed, and nothing recorded: the retry does the whole pass again.
    expect((await stored(ref(9)))?.payload_state).toBe('Scanning');
    expect(await table.get(keys.supervisionItem.key(client, ref(9)))).toBeUndefined();
    table.transactWrite = write;
    expect(await processPayload(deps, client, ref(9))).toBe('Processed');
    const item = await table.get(keys.supervisionItem.key(client, ref(9)));
    expect(item).toMatchObject({ item_reference: ref(9), state: 'Open', hits: [{ policy_reference: 'promises', term: 'guarantee', field: 'text', matches: [{ start: 3, end: 12 }] }] });
  });
});
