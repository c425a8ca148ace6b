import { describe, expect, it } from 'vitest';
import type { MigrationItem } from '#core/store/entities/migration.ts';
import { ConditionFailedError, type TableStore, type TransactOperation } from '#core/ports/table-store.ts';
import type { RowResult } from '../import/index.ts';
import { createResultWriter, RunSupersededError } from './result-writer.ts';

const migration: MigrationItem = {
  client: 'acme',
  migration_reference: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  migration_state: 'Pending',
  filename: 'legacy.ndjson',
  counters: {},
  warnings: [],
  object_key: 'acme/migrations/01ARZ3NDEKTSV4RRFFQ69G5FAV',
  size_bytes: 1000,
  checkpoint_row: 1,
  invocations: 1,
  tallies: {},
};

const group = (row: number, isNewOrUpdated = true): RowResult => ({
  row,
  kind: 'success',
  type: isNewOrUpdated ? 'GroupAdded' : 'NoChangeToGroup',
  entity: 'Group',
  reference: `g${row}`,
  isNewOrUpdated,
});

/** A table that records each transaction, or refuses them all as a moved checkpoint would. */
function recordingTable(refuse = false) {
  const transactions: TransactOperation[][] = [];
  const table = {
    transactWrite: async (operations: readonly TransactOperation[]) => {
      if (refuse) throw new ConditionFailedError('checkpoint moved');
      transactions.push([...operations]);
    },
  } as unknown as TableStore;
  return { table, transactions };
}

const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

describe('the result writer', () => {
  it('writes at most 99 results per transaction, each with the migration update that moves the checkpoint', async () => {
    const { table, transactions } = recordingTable();
    const writer = createResultWriter({ table, clock }, migration, 1000);
    for (let row = 2; row <= 251; row += 1) await writer.add(row, [group(row, row % 2 === 0)], row * 4);
    await writer.flush();
    expect(transactions.map((operations) => operations.length)).toEqual([100, 100, 53]);
    const updates = transactions.map((operations) => operations.at(-1));
    expect(updates.map((update) => (update?.kind === 'update' ? update.update.set?.checkpoint_row : undefined))).toEqual([100, 199, 251]);
    expect(updates.map((update) => (update?.kind === 'update' ? update.condition : undefined))[1]).toMatchObject({ values: { ':from': 100 } });
    expect(writer.checkpoint).toBe(251);
    expect(writer.snapshot().counters).toEqual({ groups_total: 250, groups_new_or_updated: 125 });
    expect(writer.snapshot().tallies).toEqual({
      GroupAdded: { kind: 'success', count: 125, reference: 'g2' },
      NoChangeToGroup: { kind: 'success', count: 125, reference: 'g3' },
    });
    expect(writer.snapshot().progress).toMatchObject({ rows_read: 251, bytes_read: 1000, bytes_total: 1000 });
  });

  it('keeps a row whole: its results never split across two transactions', async () => {
    const { table, transactions } = recordingTable();
    const writer = createResultWriter({ table, clock }, migration, 1000);
    await writer.add(2, Array.from({ length: 98 }, () => group(2)), 10);
    await writer.add(3, [group(3), group(3)], 20);
    await writer.flush();
    expect(transactions.map((operations) => operations.length)).toEqual([99, 3]);
    await expect(writer.add(4, Array.from({ length: 100 }, () => group(4)), 30)).rejects.toThrow('more than one transaction holds');
  });

  it('stops when another invocation moved the checkpoint first, and writes nothing when nothing is queued', async () => {
    const refused = createResultWriter({ table: recordingTable(true).table, clock }, migration, 1000);
    await refused.add(2, [group(2)], 10);
    await expect(refused.flush()).rejects.toBeInstanceOf(RunSupersededError);
    const { table, transactions } = recordingTable();
    await createResultWriter({ table, clock }, migration, 1000).flush();
    expect(transactions).toEqual([]);
  });

  it('counts errors from where the migration stood, so a resumed run still ends PartialFail', async () => {
    const resumed = { ...migration, tallies: { Error: { kind: 'error' as const, count: 2 } } };
    const writer = createResultWriter({ table: recordingTable().table, clock }, resumed, 1000);
    await writer.add(2, [{ row: 2, kind: 'error', type: 'DuplicateDeviceReference', entity: 'Device', reference: 'd', message: 'x'.repeat(5000), isNewOrUpdated: false }], 10);
    expect(writer.errorCount).toBe(3);
    expect(writer.snapshot().tallies.DuplicateDeviceReference?.message).toHaveLength(2000);
  });
});
