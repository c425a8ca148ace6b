import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { measureCapacity } from '#core/ports/capacity-meter.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { readAccount } from '#core/store/entities/account.ts';
import { payloadToItem } from '#core/store/entities/payload.ts';
import { keys } from '#core/store/keys.ts';
import { processedIndexBackfillJob } from '../../lambdas/jobs/processed-index-backfill.ts';
import { listSmsThread } from '../../lambdas/payloads/payload-lists.ts';
import { adminCaller } from './support/admin-caller.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * What a page of an SMS thread reads on DynamoDB Local, counted by the capacity meter: the thread's own messages on
 * the byThread index (and the account, which says the tenant is indexed), the same however many calls and other
 * threads the device holds. A tenant whose messages predate the index lists the same thread from the device's
 * recordings until the backfill has given every message its keys and marked the tenant.
 */
let tenant: RunTenant;
let older: RunTenant;

const PAGE = 50;
/** Recordings of the one device: every third a message, in two threads alternately, the rest calls. */
const RECORDINGS = 600;
const DEVICE = 'dev-thread';
const NOW = Date.now();

const threadQuery = endpointOf(payloadEndpoints, 'client.devices.sms-thread').query.parse({ limit: String(PAGE) });
const list = (on: RunTenant, thread: string) => listSmsThread(adminCaller(on.deps, on.client, 'payloads:List'), DEVICE, thread, threadQuery);
const references = (result: unknown) => ((result as { data: Array<{ payload_reference: string }> }).data ?? []).map((entry) => entry.payload_reference);

/** A Query's least: the bytes of what it returns at half a unit per 4 KB (what the bench calls `least`). */
const leastFor = (bytes: number) => 0.5 * Math.max(1, Math.ceil(bytes / 4096));

async function write(deps: Dependencies, items: readonly TableItem[]): Promise<void> {
  for (let start = 0; start < items.length; start += 100) {
    await deps.table.transactWrite(items.slice(start, start + 100).map((item) => ({ kind: 'put' as const, item })));
  }
}

/** `count` recordings of the device from `offset` on, a minute apart and oldest first; the messages of each thread in order. */
function recordings(client: string, count: number, { offset = 0, messages = true } = {}): { items: TableItem[]; threads: Record<string, string[]> } {
  const items: TableItem[] = [];
  const threads: Record<string, string[]> = { 'thread-a': [], 'thread-b': [] };
  for (let index = offset; index < offset + count; index += 1) {
    const time = new Date(NOW - (100_000 - index) * 60_000).toISOString();
    const reference = ulid(Date.parse(time));
    const isMessage = messages && index % 3 === 0;
    const thread = (index / 3) % 2 === 0 ? 'thread-a' : 'thread-b';
    if (isMessage) threads[thread]?.push(reference);
    items.push(
      payloadToItem(client, {
        client,
        payload_reference: reference,
        payload_type: isMessage ? 'SMS' : 'Call',
        payload_state: 'Processed',
        payload_time: time,
        device_reference: DEVICE,
        checksum: 'ab'.repeat(32),
        processed_at: time,
        uploaded_at: time,
        ...(isMessage ? { thread_id: thread, payload_size: 300 } : { payload_duration: 60, payload_size: 480_000 }),
      }),
    );
  }
  return { items, threads };
}

let threads: Record<string, string[]>;

beforeAll(async () => {
  tenant = await createRunTenant('threadcap');
  older = await createRunTenant('thread-old');
  const seeded = recordings(tenant.client, RECORDINGS);
  threads = seeded.threads;
  await write(tenant.deps, seeded.items);
  // A tenant whose messages were written before the thread index: no thread keys, and its account unmarked.
  const bare = recordings(older.client, RECORDINGS).items.map((item) => {
    const { by_thread_pk: _pk, by_thread_sk: _sk, ...rest } = item;
    return rest as TableItem;
  });
  await write(older.deps, bare);
  await older.deps.table.update(keys.account.item(older.client), { remove: ['thread_indexed_at'] });
}, 120_000);

afterAll(async () => {
  await tenant?.close();
  await older?.close();
});

// DynamoDB Local on a shared machine: a call may take seconds.
describe('what a page of an SMS thread reads', { timeout: 60_000 }, () => {
  it('reads the thread\'s own page and one more, within 1.5× its least, the same however much else the device recorded', async () => {
    const before = await measureCapacity(() => list(tenant, 'thread-a'));
    expect(references(before.result)).toEqual(threads['thread-a']?.slice(0, PAGE));
    expect((before.result as { last_key?: string }).last_key).toBeDefined();
    // The account (is the tenant indexed?), then the page and one more: no call, no message of the other thread.
    expect(before.capacity.itemsRead).toBe(1 + PAGE + 1);
    const messageBytes = (before.capacity.bytesRead / before.capacity.itemsRead) * PAGE;
    const least = leastFor(messageBytes);
    expect(before.capacity.readUnits).toBeLessThanOrEqual(1.5 * least);

    // Three times the calls on the same device, before the thread's messages: the page costs the same.
    await write(tenant.deps, recordings(tenant.client, 3 * RECORDINGS, { offset: -3 * RECORDINGS, messages: false }).items);
    const after = await measureCapacity(() => list(tenant, 'thread-a'));
    expect(after.result).toEqual(before.result);
    expect(after.capacity.itemsRead).toBe(before.capacity.itemsRead);
    expect(after.capacity.readUnits).toBe(before.capacity.readUnits);
    console.info('an SMS thread page of 50 on DynamoDB Local', JSON.stringify({ read_units: after.capacity.readUnits, items: after.capacity.itemsRead, least }));

    // The second page goes on from the first's cursor to the thread's last message; the other thread is its own.
    const second = await listSmsThread(adminCaller(tenant.deps, tenant.client, 'payloads:List'), DEVICE, 'thread-a', {
      ...threadQuery,
      last_key: (before.result as { last_key: string }).last_key,
    });
    expect(references(second)).toEqual(threads['thread-a']?.slice(PAGE));
    expect(references(await list(tenant, 'thread-b'))).toEqual(threads['thread-b']?.slice(0, PAGE));
    expect(references(await list(tenant, 'no-such-thread'))).toEqual([]);
  });

  it('a tenant not yet indexed lists the same thread from the device; the backfill gives every message its keys and marks the tenant', async () => {
    const expected = references(await list(older, 'thread-a'));
    expect(expected).toHaveLength(PAGE);
    const unindexed = await measureCapacity(() => list(older, 'thread-a'));
    expect(references(unindexed.result)).toEqual(expected);
    // The device's recordings up to the thread's 51st message: three for each.
    expect(unindexed.capacity.itemsRead).toBeGreaterThan(2 * PAGE);

    const run = await processedIndexBackfillJob({ ...older.deps }, { client: older.client });
    expect(run).toMatchObject({ outcome: 'done', threaded: RECORDINGS / 3, indexed: 0, tenants: 1 });
    const account = await older.deps.table.get(keys.account.item(older.client), { consistent: true });
    expect(readAccount(account as TableItem).thread_indexed_at).toBeDefined();

    const indexed = await measureCapacity(() => list(older, 'thread-a'));
    expect(references(indexed.result)).toEqual(expected);
    expect(indexed.capacity.itemsRead).toBe(1 + PAGE + 1);
    // Run again, it writes nothing.
    expect(await processedIndexBackfillJob({ ...older.deps }, { client: older.client })).toMatchObject({ outcome: 'done', threaded: 0, indexed: 0 });
  });
});
