import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createLocalKeyService } from '../../core/adapters/local/local-key-service.ts';
import { createFixedClock, type FixedClock } from '../../core/adapters/local/clocks.ts';
import { createEicarScanner } from '../../core/adapters/local/eicar-scanner.ts';
import { deviceKeysOf } from '../../device-crypto/public.ts';
import { createLogger } from '../../core/logger.ts';
import { keys, payloadObjectKey } from '../../core/store/keys.ts';
import { createMemoryTable } from '../../core/testing/memory-table.ts';
import { NotRegisteredYetError, processBlobEvent } from './blob-events.ts';
import { memoryBlobs } from './memory-blobs.ts';
import { sealPayload } from '../../device-crypto/public.ts';
import { processPayload } from './processing.ts';
import { registerPayload } from './registration.ts';
import { sweepUnsettledPayloads } from './sweep.ts';

// The counted effects: the memory table does not evaluate the alert engine's conditions, and what matters is how often they run.
const effects = vi.hoisted(() => ({ metrics: 0, alerts: [] as string[] }));
vi.mock('../../metrics/record-payload-metric.ts', () => ({ recordPayloadMetric: async () => void (effects.metrics += 1) }));
vi.mock('../../alerts/raise-alert.ts', () => ({
  raiseAlert: async (_deps: unknown, _client: string, input: { subject: string }) => void effects.alerts.push(input.subject),
}));

const client = 'sweep';
const deviceReference = '01J00000000000000000000DEV';
const ref = (n: number) => `01J0000000000000000000SWP${n}`;
const MINUTE = 60_000;
const meta = { payload_time: '2025-01-01T10:00:00Z', second_parties: [{ phone_number: '+447700900001', direction: 'O' }] };

let table: ReturnType<typeof createMemoryTable>;
let blobs: ReturnType<typeof memoryBlobs>;
let clock: FixedClock;
let deps: Parameters<typeof processPayload>[0] & Parameters<typeof registerPayload>[0] & { config: { RAW_BUCKET: string } };
let kek: Buffer;
let keyId: string;

beforeEach(async () => {
  effects.metrics = 0;
  effects.alerts = [];
  table = createMemoryTable([
    { ...keys.account.item(client), client },
    { ...keys.device.key(client, deviceReference), entity: 'Device', phone_numbers: [{ phone_number: '+447700900999', slot_index: 0 }] },
  ]);
  blobs = memoryBlobs();
  clock = createFixedClock('2025-01-02T00:00:00Z');
  deps = {
    table,
    blobs,
    clock,
    keys: createLocalKeyService({ dataDir: mkdtempSync(join(tmpdir(), 'sweep-')) }),
    scanner: createEicarScanner(),
    // Jobs the registration starts are not run here: the sweep is what these tests exercise.
    jobs: { start: async () => undefined },
    logger: createLogger({ level: 'error' }),
    config: { RAW_BUCKET: 'raw-bucket' },
  };
  ({ kek, kekId: keyId } = await deviceKeysOf(deps, client));
});

const seal = () => sealPayload({ kek, client, keyId, content: randomBytes(3000), meta });
const upload = (reference: string, sealed: ReturnType<typeof seal>) => blobs.objects.set(`raw/${payloadObjectKey(client, reference)}`, sealed.ciphertext);
const register = (reference: string, sealed: ReturnType<typeof seal>) =>
  registerPayload(deps, { client, deviceReference }, { payload_reference: reference, payload_type: 'Call', ...sealed.registration });
const marker = (reference: string) => table.get(keys.payload.sweepKey(client, reference));
const state = async (reference: string) => (await table.get(keys.payload.key(client, reference)))?.payload_state;
const event = (reference: string) => ({
  Records: [{ eventName: 'ObjectCreated:Put', s3: { bucket: { name: 'raw-bucket' }, object: { key: payloadObjectKey(client, reference) } } }],
});

describe('payload sweep', () => {
  it('registration writes the marker and processing removes it once settled; nothing is due before its time', async () => {
    const sealed = seal();
    upload(ref(1), sealed);
    await register(ref(1), sealed);
    expect(await marker(ref(1))).toMatchObject({ payload_reference: ref(1), attempts: 0 });
    expect(await sweepUnsettledPayloads(deps)).toMatchObject({ clients: 1, due: 0 });
    expect(await processPayload(deps, client, ref(1))).toBe('Processed');
    expect(await marker(ref(1))).toBeUndefined();
  });

  it('a registration whose blob event never came: the sweep processes it once due, and counts it once', async () => {
    const sealed = seal();
    await register(ref(2), sealed);
    upload(ref(2), sealed); // the object lands, but its event is lost
    clock.advance(16 * MINUTE);
    expect(await sweepUnsettledPayloads(deps)).toMatchObject({ due: 1, settled: 1 });
    expect(await state(ref(2))).toBe('Processed');
    expect(await marker(ref(2))).toBeUndefined();
    clock.advance(60 * MINUTE);
    expect(await sweepUnsettledPayloads(deps)).toMatchObject({ due: 0 });
    expect(effects.metrics).toBe(1);
  });

  it('a processing killed in Scanning with no redelivery is finished by the sweep', async () => {
    const sealed = seal();
    upload(ref(3), sealed);
    await register(ref(3), sealed);
    await expect(processPayload(deps, client, ref(3), { afterScanning: () => { throw new Error('killed'); } })).rejects.toThrow('killed');
    expect(await state(ref(3))).toBe('Scanning');
    clock.advance(16 * MINUTE);
    expect(await sweepUnsettledPayloads(deps)).toMatchObject({ settled: 1 });
    expect(await state(ref(3))).toBe('Processed');
    expect(effects.metrics).toBe(1);
  });

  it('an upload whose registration never comes is marked by the blob event, alerted once after a day, processed if it registers', async () => {
    const sealed = seal();
    upload(ref(4), sealed);
    await expect(processBlobEvent(deps, event(ref(4)))).rejects.toBeInstanceOf(NotRegisteredYetError);
    await expect(processBlobEvent(deps, event(ref(4)))).rejects.toBeInstanceOf(NotRegisteredYetError);
    const first = await marker(ref(4));
    expect(first?.since).toBe('2025-01-02T00:00:00.000Z');
    clock.advance(16 * MINUTE);
    expect(await sweepUnsettledPayloads(deps)).toMatchObject({ due: 1, waiting: 1 });
    expect(effects.alerts).toEqual([]);
    clock.advance(25 * 60 * MINUTE);
    expect(await sweepUnsettledPayloads(deps)).toMatchObject({ alerted: 1 });
    clock.advance(25 * 60 * MINUTE);
    expect(await sweepUnsettledPayloads(deps)).toMatchObject({ waiting: 1, alerted: 0 });
    expect(effects.alerts).toEqual(['Payload upload not registered']);
    expect((await marker(ref(4)))?.expires_at_epoch).toEqual(expect.any(Number));

    await register(ref(4), sealed); // at last; the object is there, so it registers as Uploaded
    expect(await state(ref(4))).toBe('Uploaded');
    clock.advance(16 * MINUTE);
    expect(await sweepUnsettledPayloads(deps)).toMatchObject({ settled: 1 });
    expect(await state(ref(4))).toBe('Processed');
    expect(await marker(ref(4))).toBeUndefined();
  });

  it('a registration whose upload never comes is alerted once after a day and stays Recorded; a bare marker is dropped', async () => {
    await register(ref(5), seal());
    await table.put({ ...keys.payload.sweep(client, ref(6), '2025-01-01T00:00:00Z'), client, payload_reference: ref(6), since: '2025-01-01T00:00:00Z' });
    clock.advance(16 * MINUTE);
    expect(await sweepUnsettledPayloads(deps)).toMatchObject({ due: 2, waiting: 1, dropped: 1 });
    expect(await marker(ref(6))).toBeUndefined();
    for (let day = 0; day < 3; day += 1) {
      clock.advance(25 * 60 * MINUTE);
      await sweepUnsettledPayloads(deps);
    }
    expect(effects.alerts).toEqual(['Payload upload missing']);
    expect(await state(ref(5))).toBe('Recorded');
  });

  it('reads only by Query: the client list, then each client\'s due markers as a key range', async () => {
    await register(ref(7), seal());
    table.queries.length = 0;
    clock.advance(16 * MINUTE);
    await sweepUnsettledPayloads(deps);
    expect(table.queries.map((query) => [query.index, query.partition])).toEqual([
      [keys.account.listAll().index, keys.account.listAll().partition],
      [keys.payload.listSweepDue(client).index, keys.payload.listSweepDue(client).partition],
    ]);
    expect(table.queries[1]?.sort).toEqual({ between: ['0', clock.now().toISOString()] });
  });
});
