import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFixedClock, type FixedClock } from '../../core/adapters/local/clocks.ts';
import type { TableItem } from '../../core/ports/table-store.ts';
import { awaitingEntryToItem, type AwaitingEntryItem } from '../../core/store/entities/awaiting-entry.ts';
import { countsOf, readCompletenessCounters } from '../../core/store/entities/completeness-counters.ts';
import { deviceLastSeenToItem } from '../../core/store/entities/device.ts';
import { ledgerEntryToItem, readLedgerEntry, type LedgerEntryItem } from '../../core/store/entities/ledger-entry.ts';
import { keys } from '../../core/store/keys.ts';
import { createMemoryTable, type MemoryTable } from '../../core/testing/memory-table.ts';
import { counterOperations, entryStored } from '../reconcile/counter-moves.ts';
import { COMPLETENESS_SWEEP_JOB, completenessSweepJob } from './completeness-sweep.ts';

// What is raised, as the alert engine receives it: the engine's conditions are DynamoDB's (the reconciliation
// integration test proves alerts against DynamoDB Local); here the sweep's own moves and paging are under test.
const raised = vi.hoisted(() => [] as Array<{ key: string; message: string }>);
vi.mock('../../alerts/public.ts', async (original) => ({
  ...(await original<Record<string, unknown>>()),
  raiseAlert: async (_deps: unknown, _client: string, input: { key: string; message: string }) => {
    raised.push(input);
    return { alert: {}, created: true };
  },
}));

const client = 'sweepy';
const DEVICE = 'DEV1';
const NOW = '2026-11-20T12:00:00.000Z';
const HOUR = 3_600_000;
const hoursAgo = (hours: number) => new Date(Date.parse(NOW) - hours * HOUR).toISOString();

let table: MemoryTable;
let clock: FixedClock;
let started: Array<{ name: string; input: Record<string, unknown> }>;
let deps: Parameters<typeof completenessSweepJob>[0];

function pendingEntry(n: number, startTime: string, dueAt: string): LedgerEntryItem {
  return {
    entry_id: `call-${String(n).padStart(3, '0')}`,
    payload_type: 'Call',
    phone_number: `+4477009${String(n).padStart(5, '0')}`,
    direction: 'O',
    start_time: startTime,
    duration: 30,
    device_reference: DEVICE,
    device_user_reference: 'USER1',
    group: 'north',
    outcome: 'Pending',
    reported_at: startTime,
    outcome_at: startTime,
    due_at: dueAt,
    day: startTime.slice(0, 10),
  };
}

/** Stores entries as intake does: each with its counts. */
async function store(entries: readonly LedgerEntryItem[]): Promise<void> {
  for (const entry of entries) {
    await table.transactWrite([{ kind: 'put', item: ledgerEntryToItem(client, entry) }, ...counterOperations(client, [entryStored(entry, entry.payload_type, entry.outcome)])]);
  }
}

async function deviceCounts() {
  const page = await table.query(keys.completenessCounters.listDevice(client, DEVICE));
  const counters: Record<string, number> = {};
  for (const item of page.items.map(readCompletenessCounters)) for (const [name, value] of Object.entries(item.counters)) counters[name] = (counters[name] ?? 0) + value;
  return countsOf({ counters });
}

const entry = async (id: string) => readLedgerEntry((await table.get(keys.ledgerEntry.key(client, DEVICE, id))) as TableItem);

beforeEach(() => {
  raised.splice(0);
  started = [];
  clock = createFixedClock(NOW);
  table = createMemoryTable([
    { ...keys.account.item(client), client },
    { ...keys.device.key(client, DEVICE), entity: 'Device', device_reference: DEVICE, model: 'Pixel 8', phone_numbers: [], ledger_covered_to: hoursAgo(1), ledger_reported_at: hoursAgo(1) },
  ]);
  deps = { table, clock, jobs: { start: async (name: string, input: Record<string, unknown>) => void started.push({ name, input }) } } as unknown as typeof deps;
});

describe('the Pending sweep', () => {
  it('moves every entry past its due_at to Missing with its counts and one gap alert each, across pages and runs', async () => {
    await store(Array.from({ length: 150 }, (_, n) => pendingEntry(n, hoursAgo(30 - n / 100), hoursAgo(5))));
    expect(await deviceCounts()).toMatchObject({ expected: 150, pending: 150, missing: 0 });

    // A run whose budget ends after its first page starts itself again from where it stopped.
    const first = await completenessSweepJob(deps, { client }, { pages: 2 });
    expect(first).toMatchObject({ outcome: 'more', moved_missing: 100, at: client, phase: 'pending' });
    expect(started).toHaveLength(1);
    expect(started[0]?.name).toBe(COMPLETENESS_SWEEP_JOB);
    const second = await completenessSweepJob(deps, started[0]?.input ?? {}, {});
    expect(second).toEqual({ outcome: 'done', moved_missing: 150, matched_late: 0, unexpected: 0, silent: 0, alerts_recovered: 0 });

    expect(await deviceCounts()).toMatchObject({ expected: 150, pending: 0, missing: 150 });
    expect((await entry('call-000')).outcome).toBe('Missing');
    // Each raised its alert, and the flag that keeps it from being lost is cleared.
    expect(raised).toHaveLength(150);
    expect(new Set(raised.map((input) => input.key))).toEqual(new Set([`completeness:${DEVICE}:${hoursAgo(30).slice(0, 10)}`, `completeness:${DEVICE}:${hoursAgo(29).slice(0, 10)}`]));
    expect((await entry('call-000')).alert_pending).toBeUndefined();

    // Run again: nothing is moved, counted or alerted twice.
    expect(await completenessSweepJob(deps, { client }, {})).toMatchObject({ outcome: 'done', moved_missing: 0, alerts_recovered: 0 });
    expect(await deviceCounts()).toMatchObject({ pending: 0, missing: 150 });
    expect(raised).toHaveLength(150);
  });

  it('leaves an entry whose own due_at is still ahead (a long call, or a longer grace when it was stored)', async () => {
    await store([pendingEntry(1, hoursAgo(30), hoursAgo(-2)), pendingEntry(2, hoursAgo(2), hoursAgo(1))]);
    // Grace 24 h: only entries that started a day ago are read; the first is not due yet, the second not read.
    expect(await completenessSweepJob(deps, { client }, {})).toMatchObject({ moved_missing: 0 });
    expect([(await entry('call-001')).outcome, (await entry('call-002')).outcome]).toEqual(['Pending', 'Pending']);
    clock.advance(3 * HOUR);
    expect(await completenessSweepJob(deps, { client }, {})).toMatchObject({ moved_missing: 1 });
    expect((await entry('call-001')).outcome).toBe('Missing');
  });

  it('raises the gap alert a failed run left flagged on a Missing entry', async () => {
    await store([{ ...pendingEntry(7, hoursAgo(30), hoursAgo(5)), outcome: 'Missing', alert_pending: true }]);
    expect(await completenessSweepJob(deps, { client }, {})).toMatchObject({ alerts_recovered: 1, moved_missing: 0 });
    expect(raised.map((input) => input.message)).toEqual([expect.stringContaining('Call missing on 2026-11-19 from Pixel 8')]);
    expect((await entry('call-007')).alert_pending).toBeUndefined();
    expect(await completenessSweepJob(deps, { client }, {})).toMatchObject({ alerts_recovered: 0 });
  });
});

describe('recordings no entry explains', () => {
  const marker = (reference: string, payloadTime: string, device = DEVICE): AwaitingEntryItem => ({
    payload_reference: reference,
    payload_type: 'SMS',
    payload_time: payloadTime,
    device_reference: device,
    direction: 'I',
    numbers: ['700900123'],
    thread_id: 't-1',
    uploaded_at: payloadTime,
    device_user_reference: 'USER1',
    group: 'north',
    unexpected: false,
    day: payloadTime.slice(0, 10),
  });

  it('are Unexpected once past their grace and covered by the phone’s ledger, counted once', async () => {
    await table.put(awaitingEntryToItem(client, marker('P-COVERED', hoursAgo(26))));
    // Past its grace but after what the ledger covers (an hour ago): not yet.
    await table.put(awaitingEntryToItem(client, marker('P-RECENT', hoursAgo(0.5))));
    // A phone that never sent a ledger: never Unexpected.
    await table.put({ ...keys.device.key(client, 'DEV2'), entity: 'Device', device_reference: 'DEV2', phone_numbers: [] });
    await table.put(awaitingEntryToItem(client, marker('P-NOLEDGER', hoursAgo(26), 'DEV2')));

    expect(await completenessSweepJob(deps, { client }, {})).toMatchObject({ unexpected: 1 });
    const stored = await table.get(keys.awaitingEntry.key(client, DEVICE, hoursAgo(26), 'P-COVERED'));
    expect(stored).toMatchObject({ unexpected: true, unexpected_at: NOW });
    // Out of the sweep's list, into the Unexpected one.
    expect(stored?.gsi1pk).toBeUndefined();
    expect((await table.query(keys.ledgerEntry.listByOutcome(client, 'Unexpected'))).items.map((item) => item.payload_reference)).toEqual(['P-COVERED']);
    expect(await deviceCounts()).toMatchObject({ unexpected: 1, expected: 0 });

    clock.advance(48 * HOUR);
    expect(await completenessSweepJob(deps, { client }, {})).toMatchObject({ unexpected: 0 });
    expect(await deviceCounts()).toMatchObject({ unexpected: 1 });
  });

});

describe('silent devices', () => {
  it('raise their alert when heard from, but by neither ledger nor telemetry within the silent hours; never when never heard from', async () => {
    await table.put({ ...keys.device.key(client, 'QUIET'), entity: 'Device', device_reference: 'QUIET', phone_numbers: [], ledger_reported_at: hoursAgo(30) });
    await table.put({ ...keys.telemetry.latest(client, 'QUIET'), entity: 'DeviceTelemetry', device_reference: 'QUIET', received_at: hoursAgo(25) });
    await table.put({ ...keys.device.key(client, 'NEVER'), entity: 'Device', device_reference: 'NEVER', phone_numbers: [] });
    await table.put({ ...keys.device.key(client, 'TALKS'), entity: 'Device', device_reference: 'TALKS', phone_numbers: [], ledger_reported_at: hoursAgo(30) });
    await table.put({ ...keys.telemetry.latest(client, 'TALKS'), entity: 'DeviceTelemetry', device_reference: 'TALKS', received_at: hoursAgo(2) });
    for (const device of ['QUIET', 'NEVER', 'TALKS', DEVICE]) await table.put(deviceLastSeenToItem(client, device, hoursAgo(1)));

    expect(await completenessSweepJob(deps, { client }, {})).toMatchObject({ silent: 1 });
    expect(raised.map((input) => input.key)).toEqual(['silent:QUIET']);
  });
});

