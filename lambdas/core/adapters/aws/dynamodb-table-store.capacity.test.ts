import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint.ts';
import { ensureTable, startDynamo, type LocalDynamo } from '../../../../scripts/local/dynamodb.ts';
import { createHttpHandler } from '../../http/create-http-handler.ts';
import { implement } from '../../http/route.ts';
import { measureCapacity, ROUTE_CAPACITY } from '../../ports/capacity-meter.ts';
import { eventFor, testContext, testDependencies } from '../../testing/http-events.ts';
import { runJobIn } from '../../../jobs/public.ts';
import { ConditionFailedError, type TableStore } from '../../ports/table-store.ts';
import { createDynamoTableStore } from './dynamodb-table-store.ts';
import { apiRecorders } from '../../../api-recorders.ts';

/**
 * The capacity meter against DynamoDB Local, which answers ReturnConsumedCapacity by DynamoDB's rules: a read costs
 * half a unit per 4 KB eventually consistent (one consistent), a Query sums the sizes of what it read before rounding,
 * a write one unit per 1 KB. One difference: DynamoDB bills a transaction's writes twice (prepare and commit), while
 * DynamoDB Local reports them at the plain rate; the meter adds what the engine reports, so locally a transaction
 * shows half its AWS cost (docs/architecture.md, "Capacity").
 */
let dynamo: LocalDynamo;
let store: TableStore;
const TABLE = 'capacity-meter';

/** An item of about `kb` KB (its filler makes the size; keys and entity add a few dozen bytes). */
const item = (pk: string, sk: string, kb: number) => ({ pk, sk, entity: 'Test', filler: 'x'.repeat(Math.max(0, kb * 1024 - 64)) });

beforeAll(async () => {
  dynamo = await startDynamo({});
  await ensureTable(dynamo.client, TABLE);
  store = createDynamoTableStore(DynamoDBDocumentClient.from(dynamo.client), TABLE);
}, 120_000);

afterAll(async () => {
  await dynamo?.stop();
});

// DynamoDB Local on a shared 2-core machine: a call may take seconds.
describe('capacity meter on the DynamoDB table store', { timeout: 30_000 }, () => {
  it('sums the write units of puts by item size, and the items and bytes written', async () => {
    const { capacity } = await measureCapacity(async () => {
      await store.put(item('C#meter#A', 'ONE', 0.5));
      await store.put(item('C#meter#A', 'THREE', 2.5));
    });
    // 0.5 KB: one unit; 2.5 KB: three.
    expect(capacity).toMatchObject({ writeUnits: 4, readUnits: 0, itemsWritten: 2, calls: 2, failedCalls: 0 });
    expect(capacity.bytesWritten).toBeGreaterThan(3 * 1024 - 200);
    expect(capacity.bytesWritten).toBeLessThan(3 * 1024 + 200);
  });

  it('counts a Get by 4 KB at half a unit, a consistent one at a whole unit', async () => {
    await store.put(item('C#meter#B', 'FIVE', 5));
    const eventual = await measureCapacity(() => store.get({ pk: 'C#meter#B', sk: 'FIVE' }));
    expect(eventual.capacity).toMatchObject({ readUnits: 1, itemsRead: 1, calls: 1 });
    expect(eventual.capacity.bytesRead).toBeGreaterThan(5 * 1024 - 200);
    const consistent = await measureCapacity(() => store.get({ pk: 'C#meter#B', sk: 'FIVE' }, { consistent: true }));
    expect(consistent.capacity.readUnits).toBe(2);
    const missing = await measureCapacity(() => store.get({ pk: 'C#meter#B', sk: 'NONE' }));
    expect(missing.capacity).toMatchObject({ readUnits: 0.5, itemsRead: 0, bytesRead: 0 });
  });

  it('counts a Query by the summed size of what it read, and its items', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, index) => store.put(item('C#meter#C', `ROW#${index}`, 1))));
    const { result, capacity } = await measureCapacity(() => store.query({ partition: 'C#meter#C' }));
    expect(result.items).toHaveLength(10);
    // About 10 KB read: three 4 KB blocks at half a unit each (per item it would be five).
    expect(capacity).toMatchObject({ readUnits: 1.5, itemsRead: 10, calls: 1 });
    const page = await measureCapacity(() => store.query({ partition: 'C#meter#C', limit: 2 }));
    expect(page.capacity).toMatchObject({ readUnits: 0.5, itemsRead: 2 });
  });

  it('counts updates, deletes, transactions and batch reads', async () => {
    const { capacity } = await measureCapacity(async () => {
      await store.update({ pk: 'C#meter#D', sk: 'U' }, { set: { entity: 'Test', note: 'n' } });
      await store.transactWrite([
        { kind: 'put', item: item('C#meter#D', 'T1', 0.5) },
        { kind: 'put', item: item('C#meter#D', 'T2', 0.5) },
      ]);
      await store.delete({ pk: 'C#meter#D', sk: 'U' });
    });
    // Update 1, the two-item transaction 2 as DynamoDB Local reports it (4 in AWS), delete 1.
    expect(capacity).toMatchObject({ writeUnits: 1 + 2 + 1, itemsWritten: 4, calls: 3 });
    // An update is billed by the whole item, not by what it sent: a small change to a 2.5 KB item costs three units.
    await store.put(item('C#meter#D', 'BIG', 2.5));
    const changed = await measureCapacity(() => store.update({ pk: 'C#meter#D', sk: 'BIG' }, { set: { note: 'n' } }));
    expect(changed.capacity).toMatchObject({ writeUnits: 3, itemsWritten: 1 });
    expect(changed.capacity.bytesWritten).toBeGreaterThan(2.5 * 1024 - 200);
    const read = await measureCapacity(() => store.batchGet([{ pk: 'C#meter#D', sk: 'T1' }, { pk: 'C#meter#D', sk: 'T2' }, { pk: 'C#meter#D', sk: 'NONE' }]));
    expect(read.result).toHaveLength(2);
    expect(read.capacity).toMatchObject({ itemsRead: 2, calls: 1 });
    // Each key is its own read in a batch: half a unit for each found item (a missing one costs nothing, as in DynamoDB).
    expect(read.capacity.readUnits).toBeGreaterThanOrEqual(1);
    expect(read.capacity.readUnits).toBeLessThanOrEqual(1.5);
  });

  it('adds what a nested meter saw to its parent, keeps meters of concurrent work apart, and counts a refused write as failed', async () => {
    await store.put(item('C#meter#E', 'ONE', 0.5));
    const outer = await measureCapacity(async () => {
      const [first, second] = await Promise.all([
        measureCapacity(() => store.get({ pk: 'C#meter#E', sk: 'ONE' })),
        measureCapacity(() => store.put(item('C#meter#E', 'TWO', 0.5))),
      ]);
      const refused = await measureCapacity(() => store.put(item('C#meter#E', 'ONE', 0.5), { condition: { kind: 'item-not-exists' } }).catch((error: unknown) => error));
      return { first: first.capacity, second: second.capacity, refused };
    });
    expect(outer.result.first).toMatchObject({ readUnits: 0.5, writeUnits: 0, calls: 1 });
    expect(outer.result.second).toMatchObject({ readUnits: 0, writeUnits: 1, calls: 1 });
    expect(outer.result.refused.result).toBeInstanceOf(ConditionFailedError);
    expect(outer.result.refused.capacity).toMatchObject({ calls: 1, failedCalls: 1, writeUnits: 0 });
    expect(outer.capacity).toMatchObject({ readUnits: 0.5, writeUnits: 1, calls: 3, failedCalls: 1 });
  });

  it('works as before outside any meter', async () => {
    await store.put(item('C#meter#F', 'ONE', 0.5));
    expect(await store.get({ pk: 'C#meter#F', sk: 'ONE' })).toMatchObject({ sk: 'ONE' });
  });
});

describe('capacity per request', { timeout: 30_000 }, () => {
  const readTwo = defineEndpoint({
    id: 'admin.account.metadata',
    surface: 'admin',
    method: 'GET',
    path: '/account/metadata',
    auth: 'public',
    action: 'account:Metadata',
    group: 'devices',
    summary: 'Reads two items',
    response: z.object({ found: z.number() }),
  });

  it('meters each request on its own and logs what it and its route consumed at debug level', async () => {
    await store.put(item('C#meter#G', 'ONE', 5));
    await store.put(item('C#meter#G', 'TWO', 0.5));
    const logLines: string[] = [];
    const dependencies = testDependencies({ tokens: { verify: () => Promise.reject(new Error('no tokens here')) }, logLines, table: store });
    const handler = createHttpHandler({
      recorders: apiRecorders,
      group: 'devices',
      endpoints: [readTwo],
      routes: {
        [readTwo.id]: implement(readTwo, async (_input, deps) => {
          const found = await Promise.all([deps.table.get({ pk: 'C#meter#G', sk: 'ONE' }), deps.table.get({ pk: 'C#meter#G', sk: 'TWO' })]);
          return { found: found.filter(Boolean).length };
        }),
      },
      dependencies,
    });
    const outer = await measureCapacity(() =>
      Promise.all([0, 1].map(() => handler(eventFor(readTwo, { pathParameters: { client: 'acme' } }), testContext))),
    );
    expect(outer.result.map((result) => result.statusCode)).toEqual([200, 200]);
    // Each request logged its own figures: one read of 5 KB (one unit) and one of 0.5 KB (half a unit), all in its route.
    const capacityLines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.message === 'capacity');
    expect(capacityLines).toHaveLength(2);
    for (const line of capacityLines) {
      expect(line).toMatchObject({ level: 'debug', endpoint: 'admin.account.metadata', read_units: 1.5, write_units: 0, items_read: 2, calls: 2, route_read_units: 1.5 });
    }
    // The requests' meters nest in the caller's, which sees both and can tell the routes' part.
    expect(outer.capacity).toMatchObject({ readUnits: 3, calls: 4 });
  });
});

describe('capacity meter labels', { timeout: 30_000 }, () => {
  it('keeps the part spent inside labelled nested meters, for every meter around them', async () => {
    await store.put(item('C#meter#H', 'ONE', 0.5));
    const outer = await measureCapacity(async (meter) => {
      await store.get({ pk: 'C#meter#H', sk: 'ONE' });
      await measureCapacity(() => measureCapacity(() => store.put(item('C#meter#H', 'TWO', 0.5))), ROUTE_CAPACITY);
      return meter.totals(ROUTE_CAPACITY);
    });
    expect(outer.result).toMatchObject({ readUnits: 0, writeUnits: 1, calls: 1 });
    expect(outer.capacity).toMatchObject({ readUnits: 0.5, writeUnits: 1, calls: 2 });
  });
});

describe('capacity per job invocation', { timeout: 30_000 }, () => {
  it('reports what one job invocation consumed, also when the job fails', async () => {
    await store.put(item('C#meter#J', 'ONE', 0.5));
    const logLines: string[] = [];
    const dependencies = testDependencies({ tokens: { verify: () => Promise.reject(new Error('no tokens here')) }, logLines, table: store });
    const jobs = {
      reads: async () => ({ found: (await store.get({ pk: 'C#meter#J', sk: 'ONE' })) === undefined ? 0 : 1 }),
      fails: async () => {
        await store.put(item('C#meter#J', 'TWO', 0.5));
        throw new Error('job failed after writing');
      },
    };
    expect(await runJobIn(jobs, dependencies, 'reads')).toEqual({ found: 1 });
    await expect(runJobIn(jobs, dependencies, 'fails')).rejects.toThrow('job failed after writing');
    const capacityLines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.message === 'capacity');
    expect(capacityLines).toEqual([
      expect.objectContaining({ level: 'debug', job: 'reads', read_units: 0.5, write_units: 0, items_read: 1, calls: 1 }),
      expect.objectContaining({ level: 'debug', job: 'fails', read_units: 0, write_units: 1, items_written: 1, calls: 1 }),
    ]);
  });
});
