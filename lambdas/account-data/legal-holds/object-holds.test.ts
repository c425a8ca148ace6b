import { describe, expect, it } from 'vitest';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { memoryBlobs } from '../../payloads/public.ts';
import { HOLD_PAGE, syncObjectHolds } from './object-holds.ts';

const client = 'acme';
const time = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString();

/** `count` processed recordings of `user` on `device`, each with its object, plus one still uploading (no object). */
async function fleet(count: number) {
  const table = createMemoryTable([
    { ...keys.deviceUser.item(client, 'alice'), client, device_user_reference: 'alice', is_active: true },
    { ...keys.device.item(client, 'dev-1', 'alice'), client, device_reference: 'dev-1', device_user_reference: 'alice' },
  ]);
  const blobs = memoryBlobs();
  const references: string[] = [];
  for (let n = 0; n < count + 1; n += 1) {
    const reference = `01J${String(n).padStart(23, '0')}`;
    const state = n === count ? 'Uploaded' : 'Processed';
    await table.put({
      ...keys.payload.item(client, { payloadReference: reference, payloadTime: time(n), deviceReference: 'dev-1', deviceUserReference: 'alice' }),
      client,
      payload_reference: reference,
      payload_type: 'Call',
      payload_state: state,
      device_reference: 'dev-1',
      device_user_reference: 'alice',
    });
    if (state === 'Processed') {
      await blobs.put('processed', payloadObjectKey(client, reference), Buffer.from(reference));
      references.push(reference);
    }
  }
  return { table, blobs, references };
}

describe('object legal holds in step with a device user hold', () => {
  it('holds every recording in bounded Query pages, skips one with no object yet, and frees them all', async () => {
    const { table, blobs, references } = await fleet(2 * HOLD_PAGE + 30);
    expect(await syncObjectHolds({ table, blobs }, client, 'alice', 'on')).toBe(2 * HOLD_PAGE + 30);
    for (const reference of references) expect(await blobs.getLegalHold('processed', payloadObjectKey(client, reference))).toBe(true);
    const payloadQueries = table.queries.filter((query) => query.partition.endsWith('#PAYLOADS'));
    // Both lists (by device user and by device) of 231 items: 3 pages each, none over the page size; each object once.
    expect(payloadQueries).toHaveLength(6);
    expect(payloadQueries.every((query) => query.limit === HOLD_PAGE)).toBe(true);

    // No hold item is active, so nothing else covers them: all off.
    await syncObjectHolds({ table, blobs }, client, 'alice', 'off');
    for (const reference of references) expect(await blobs.getLegalHold('processed', payloadObjectKey(client, reference))).toBe(false);
  });

  it('leaves an object on where another active hold still covers it', async () => {
    const { table, blobs, references } = await fleet(3);
    await syncObjectHolds({ table, blobs }, client, 'alice', 'on');
    await table.put({ ...keys.legalHold.item(client, 'DeviceUser', 'alice'), client, target: 'alice', target_type: 'DeviceUser', is_active: true, created_at: time(0) });
    expect(await syncObjectHolds({ table, blobs }, client, 'alice', 'off')).toBe(0);
    for (const reference of references) expect(await blobs.getLegalHold('processed', payloadObjectKey(client, reference))).toBe(true);
  });
});
