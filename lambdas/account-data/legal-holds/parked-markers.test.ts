import { describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { memoryBlobs } from '../../payloads/public.ts';
import { markersOf, retainedRecordOf } from '../retention/due-index.ts';
import { LEGAL_HOLD_SYNC_JOB, legalHoldSyncJob } from './hold-sync.ts';
import { PARKED_PAGE, parkHeldRecords } from './parked-markers.ts';
import { retentionDueToItem } from '#core/store/entities/retention-due.ts';

const client = 'acme';
const OFFICER = 'officer';
const time = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString();
const clock = { now: () => new Date(Date.UTC(2026, 0, 1)) };
const officerHold = { targetType: 'PortalUser' as const, target: OFFICER };

/** `count` activity records of the officer, their markers live, and the officer's hold (active or released as walk w1). */
async function trail(count: number) {
  const table = createMemoryTable([
    { ...keys.legalHold.item(client, 'PortalUser', OFFICER), client, target: OFFICER, target_type: 'PortalUser', is_active: true, created_at: time(0) },
  ]);
  const records: TableItem[] = [];
  for (let n = 0; n < count; n += 1) {
    const logId = `01J${String(n).padStart(23, '0')}`;
    const record = { ...keys.userActivity.item(client, time(n), logId, OFFICER), client, log_id: logId, user_id: OFFICER, activity_time: time(n), action: 'payloads:List', is_allowed: true };
    await table.put(record);
    for (const marker of markersOf(client, retainedRecordOf(record)!, 'LIVE')) await table.put(retentionDueToItem(marker));
    records.push(record);
  }
  const started: Array<{ job: string; input: Record<string, unknown> }> = [];
  const deps = { table, blobs: memoryBlobs(), clock, config: { LONG_JOB_BUDGET_SECONDS: 240, LONG_JOB_LEASE_MARGIN_SECONDS: 90 }, jobs: { start: async (job: string, input: Record<string, unknown>) => void started.push({ job, input }) } } as unknown as Dependencies;
  const stages = async () => {
    const found = await table.batchGet(records.map((record) => keys.retentionDue.key(client, record, 'at')));
    return found.reduce<Record<string, number>>((counts, marker) => ({ ...counts, [String(marker.stage)]: (counts[String(marker.stage)] ?? 0) + 1 }), {});
  };
  return { table, deps, records, started, stages };
}

describe('due markers parked under a legal hold', () => {
  it('parks only while the hold is active, and never twice', async () => {
    const { deps, table, records, stages } = await trail(3);
    const held = records.map((record) => ({ record: retainedRecordOf(record)!, hold: officerHold }));
    expect(await parkHeldRecords(deps, client, held)).toBe(3);
    expect(await stages()).toEqual({ HELD: 3 });
    // Already parked: nothing left to move.
    expect(await parkHeldRecords(deps, client, held)).toBe(0);
    await table.update(keys.legalHold.key(client, 'PortalUser', OFFICER), { set: { is_active: false } });
    const { deps: other, records: fresh, stages: freshStages, table: freshTable } = await trail(2);
    await freshTable.update(keys.legalHold.key(client, 'PortalUser', OFFICER), { set: { is_active: false } });
    expect(await parkHeldRecords(other, client, fresh.map((record) => ({ record: retainedRecordOf(record)!, hold: officerHold })))).toBe(0);
    expect(await freshStages()).toEqual({ LIVE: 2 });
  });

  it('puts a large release back page by page in the legal-hold-sync job, resuming where it stopped', async () => {
    const count = 2 * PARKED_PAGE + 30;
    const { deps, table, records, started, stages } = await trail(count);
    expect(await parkHeldRecords(deps, client, records.map((record) => ({ record: retainedRecordOf(record)!, hold: officerHold })))).toBe(count);
    await table.update(keys.legalHold.key(client, 'PortalUser', OFFICER), { set: { is_active: false, sync_id: 'w1' } });
    const input = { client, target: OFFICER, target_type: 'PortalUser', sync_id: 'w1' };

    expect(await legalHoldSyncJob(deps, input, { pages: 1 })).toMatchObject({ outcome: 'more' });
    expect(started).toEqual([{ job: LEGAL_HOLD_SYNC_JOB, input }]);
    expect(await stages()).toEqual({ LIVE: PARKED_PAGE, HELD: count - PARKED_PAGE });
    const hold = await table.get(keys.legalHold.key(client, 'PortalUser', OFFICER));
    // Every marker of the page left the partition: the walk reads on from its start.
    expect(JSON.parse(String(hold?.sync_position))).toEqual({ parked: {} });
    // A portal user's hold shows no object walk.
    expect(hold?.sync_state).toBeUndefined();

    expect(await legalHoldSyncJob(deps, input)).toMatchObject({ outcome: 'done' });
    expect(await stages()).toEqual({ LIVE: count });
    expect((await table.get(keys.legalHold.key(client, 'PortalUser', OFFICER)))?.sync_position).toBeUndefined();
  });
});
