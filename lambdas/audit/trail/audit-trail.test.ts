import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalKeyService } from '../../core/adapters/local/local-key-service.ts';
import type { TableItem } from '../../core/ports/table-store.ts';
import { keys, type ActivityTrail } from '../../core/store/keys.ts';
import { createMemoryTable, type MemoryTable } from '../../core/testing/memory-table.ts';
import { entryHash, GENESIS_HASH, linkHash } from './activity-chain.ts';
import { readAuditLink } from '../../core/store/entities/audit-chain.ts';
import { closeActivityRecord, writeActivityRecord } from './activity-log.ts';
import { trailState } from './chain-state.ts';
import { writeCheckpoint } from './checkpoint.ts';
import { linkPending } from './sequencer.ts';
import { verifyChain } from './verify-chain.ts';

const client = 'acme';
const dataDir = mkdtempSync(join(tmpdir(), 'verity-audit-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const keyService = createLocalKeyService({ dataDir });
const signingKeyId = 'local/audit-signing';

let now = new Date('2025-03-01T00:00:00.000Z');
const clock = { now: () => now };
const tick = (seconds = 1) => (now = new Date(now.getTime() + seconds * 1000));

const userEntry = (index: number) => ({
  user_id: `user-${index % 3}`,
  activity_time: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString(),
  action: index % 2 === 0 ? 'roles:List' : 'groups:Update',
  is_allowed: true,
  roles: ['admin'],
  is_client_app: false,
  status_code: 200,
});
const deviceEntry = (index: number) => ({
  log_id: `01JDEVICE${String(index).padStart(17, '0')}`,
  device_reference: '01J00000000000000000000DEV',
  activity_time: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString(),
  action: 'device:UploadLogs',
  is_allowed: true,
  status_code: 200,
});
const entryOf = (trail: ActivityTrail, index: number) => (trail === 'user' ? userEntry(index) : deviceEntry(index));

async function trailOf(trail: ActivityTrail, length: number, table: MemoryTable = createMemoryTable()): Promise<MemoryTable> {
  for (let index = 1; index <= length; index += 1) await writeActivityRecord({ table, clock }, { trail, client, entry: entryOf(trail, index) });
  return table;
}

const verify = (table: MemoryTable, trail: ActivityTrail = 'user') => verifyChain({ table, keys: keyService }, client, trail, { signingKeyId });
const itemsWhere = (table: MemoryTable, test: (item: TableItem) => boolean) => [...table.items.values()].filter(test);
const linkAt = (table: MemoryTable, trail: ActivityTrail, sequence: number) =>
  table.items.get(`${keys.activityChain.link(trail, client, sequence).pk}\u0000${keys.activityChain.link(trail, client, sequence).sk}`) as TableItem;
const recordOf = (table: MemoryTable, link: TableItem) =>
  table.items.get(`${keys.activityChain.record(link.trail as ActivityTrail, client, String(link.record)).pk}\u0000${String(link.record)}`) as TableItem;
const put = (table: MemoryTable, item: TableItem) => table.items.set(`${item.pk}\u0000${item.sk}`, item);

describe('writing records', () => {
  it('gives each call its own item, waiting on the pending index, with the fields the contract knows', async () => {
    const table = createMemoryTable();
    const ref = await writeActivityRecord({ table, clock }, { trail: 'user', client, entry: { ...userEntry(1), pk: 'C#demo#X', sequence: 7, chain_state: 'linked', extra: 1 }, requestId: 'req-1' });
    const item = table.items.get(`${ref.key.pk}\u0000${ref.key.sk}`) as TableItem;
    expect(item).toMatchObject({ ...userEntry(1), client, request_id: 'req-1', chain_state: 'pending', log_id: ref.logId, gsi2pk: 'C#acme#USER_ACTIVITY#PENDING' });
    expect(item.pk).toBe('C#acme#USER_ACTIVITY');
    expect(item).not.toHaveProperty('sequence');
    expect(item).not.toHaveProperty('extra');
    const second = await writeActivityRecord({ table, clock }, { trail: 'user', client, entry: userEntry(1) });
    expect(second.key.sk).not.toBe(ref.key.sk); // same time, another item: no call contends with another
  });

  it('keeps an entry the contract refuses rather than lose it, and says so', async () => {
    const table = createMemoryTable();
    const ref = await writeActivityRecord({ table, clock }, { trail: 'user', client, entry: { action: 42 } });
    expect(table.items.get(`${ref.key.pk}\u0000${ref.key.sk}`)).toMatchObject({ action: 42, entry_invalid: true, chain_state: 'pending' });
  });

  it('writes a change open before it acts and closes it with the outcome, once', async () => {
    const table = createMemoryTable();
    const { status_code: _status, ...opening } = userEntry(2);
    const ref = await writeActivityRecord({ table, clock }, { trail: 'user', client, entry: opening, state: 'open' });
    await closeActivityRecord({ table }, ref, { ...userEntry(2), status_code: 409, is_allowed: true });
    expect(table.items.get(`${ref.key.pk}\u0000${ref.key.sk}`)).toMatchObject({ status_code: 409, chain_state: 'pending' });
    await expect(closeActivityRecord({ table }, ref, userEntry(2))).rejects.toThrow('Conflict');
  });
});

describe.each(['user', 'device'] as const)('the %s trail', (trail) => {
  it('is linked oldest first into one chain, and the pending index empties', async () => {
    const table = await trailOf(trail, 120);
    expect((await trailState({ table }, trail, client)).pending_count).toBe(120);
    const result = await linkPending({ table, clock }, trail, client);
    expect(result.linked).toBe(120);
    expect(result.head.sequence).toBe(120);
    const first = linkAt(table, trail, 1);
    expect(first.previous_hash).toBe(GENESIS_HASH);
    expect(linkAt(table, trail, 2).previous_hash).toBe(first.hash);
    expect(recordOf(table, first)).toMatchObject({ activity_time: entryOf(trail, 1).activity_time, chain_state: 'linked', sequence: 1 });
    expect(recordOf(table, first)).not.toHaveProperty('gsi2pk');
    expect(await trailState({ table }, trail, client)).toMatchObject({ linked_count: 120, pending_count: 0, head_sequence: 120, oldest_pending_at: null });
    expect(await verify(table, trail)).toMatchObject({ whole: true, linked: 120, pending: 0 });
  });

  it('never forks when sequencer runs race, and links each record once', async () => {
    const table = await trailOf(trail, 60);
    const runs = await Promise.all(Array.from({ length: 6 }, () => linkPending({ table, clock }, trail, client, { batchSize: 7, sleep: async () => undefined })));
    expect(runs.reduce((sum, run) => sum + run.linked, 0)).toBe(60);
    expect(itemsWhere(table, (item) => item.entity === 'AuditLink')).toHaveLength(60);
    expect(await verify(table, trail)).toMatchObject({ whole: true, linked: 60 });
  });
});

describe('open records', () => {
  it('wait for their outcome, or are linked as they are once abandoned', async () => {
    const table = await trailOf('user', 2);
    const ref = await writeActivityRecord({ table, clock }, { trail: 'user', client, entry: { ...userEntry(3), activity_time: now.toISOString() }, state: 'open' });
    expect((await linkPending({ table, clock }, 'user', client)).linked).toBe(2);
    expect(await verify(table)).toMatchObject({ whole: true, linked: 2, pending: 1, oldestPendingAt: now.toISOString() });
    tick(6 * 60);
    expect((await linkPending({ table, clock }, 'user', client)).linked).toBe(1);
    await expect(closeActivityRecord({ table }, ref, userEntry(3))).rejects.toThrow();
    expect(await verify(table)).toMatchObject({ whole: true, linked: 3, pending: 0 });
  });
});

/** A linked chain of 8 with a checkpoint at 5 and one at 8. */
async function checkpointed(trail: ActivityTrail = 'user'): Promise<MemoryTable> {
  const table = await trailOf(trail, 5);
  await linkPending({ table, clock }, trail, client);
  expect(await writeCheckpoint({ table, clock, keys: keyService }, trail, client, signingKeyId)).toBe(true);
  tick();
  expect(await writeCheckpoint({ table, clock, keys: keyService }, trail, client, signingKeyId)).toBe(false); // head unchanged
  for (let index = 6; index <= 8; index += 1) await writeActivityRecord({ table, clock }, { trail, client, entry: entryOf(trail, index) });
  await linkPending({ table, clock }, trail, client);
  tick();
  expect(await writeCheckpoint({ table, clock, keys: keyService }, trail, client, signingKeyId)).toBe(true);
  return table;
}
const checkpoints = (table: MemoryTable) => itemsWhere(table, (item) => item.entity === 'AuditCheckpoint');

describe('verification names each tampering', () => {
  it('passes an untouched trail with its checkpoints', async () => {
    expect(await verify(await checkpointed())).toMatchObject({ whole: true, linked: 8, checkpoints: 2 });
    expect(await verify(await checkpointed('device'), 'device')).toMatchObject({ whole: true, linked: 8, checkpoints: 2 });
  });

  it('an edited record', async () => {
    const table = await checkpointed();
    recordOf(table, linkAt(table, 'user', 3)).is_allowed = false;
    const report = await verify(table);
    expect(report).toMatchObject({ whole: false, broken: { reason: 'edited', at: expect.stringMatching(/^record #3 \(2025-01-01T00:00:03\.000Z#/) } });
  });

  it('a deleted record', async () => {
    const table = await checkpointed();
    const record = recordOf(table, linkAt(table, 'user', 4));
    table.items.delete(`${record.pk}\u0000${record.sk}`);
    expect(await verify(table)).toMatchObject({ broken: { reason: 'missing', at: expect.stringMatching(/^record #4 /) } });
  });

  it('an inserted record claiming a place in the chain', async () => {
    const table = await checkpointed();
    const copy = { ...recordOf(table, linkAt(table, 'user', 2)), sk: '2025-01-01T00:00:02.500Z#01JFORGED0000000000000000', is_allowed: false };
    put(table, copy);
    expect(await verify(table)).toMatchObject({ broken: { reason: 'inserted', at: `record ${copy.sk}` } });
  });

  it('an inserted record that never went through the pending index', async () => {
    const table = await checkpointed();
    const { gsi2pk: _pk, gsi2sk: _sk, ...forged } = recordOf(table, linkAt(table, 'user', 2));
    put(table, { ...forged, sk: '2025-01-01T00:00:02.500Z#01JFORGED0000000000000001', chain_state: 'pending', sequence: undefined });
    delete (table.items.get(`${forged.pk}\u00002025-01-01T00:00:02.500Z#01JFORGED0000000000000001`) as TableItem).sequence;
    expect(await verify(table)).toMatchObject({ broken: { reason: 'escaped' } });
  });

  it('a rewritten link, a deleted link, a moved head', async () => {
    const edited = await checkpointed();
    linkAt(edited, 'user', 6).entry_hash = 'f'.repeat(64);
    expect(await verify(edited)).toMatchObject({ broken: { reason: 'edited', at: 'link #6' } });

    const deleted = await checkpointed();
    const six = linkAt(deleted, 'user', 6);
    deleted.items.delete(`${six.pk}\u0000${six.sk}`);
    expect(await verify(deleted)).toMatchObject({ broken: { reason: 'missing', at: 'link #6' } });

    const head = await checkpointed();
    (head.items.get(`${keys.activityChain.head('user', client).pk}\u0000HEAD`) as TableItem).hash = 'e'.repeat(64);
    expect(await verify(head)).toMatchObject({ broken: { reason: 'head-mismatch' } });
  });

  it('a wholesale rewrite that keeps every hash consistent is caught by the signed checkpoint', async () => {
    const table = await checkpointed();
    // Rewrite record 2 and recompute everything after it, as someone with write access to the table could.
    recordOf(table, linkAt(table, 'user', 2)).is_allowed = false;
    let previous = linkAt(table, 'user', 1).hash as string;
    for (let sequence = 2; sequence <= 8; sequence += 1) {
      const link = linkAt(table, 'user', sequence);
      link.previous_hash = previous;
      link.entry_hash = entryHash(recordOf(table, link));
      const { hash: _hash, ...content } = readAuditLink(link);
      previous = linkHash(content);
      link.hash = previous;
    }
    (table.items.get(`${keys.activityChain.head('user', client).pk}\u0000HEAD`) as TableItem).hash = previous;
    expect(await verify(table)).toMatchObject({ broken: { reason: 'checkpoint-mismatch', at: expect.stringMatching(/^record #5 /) } });
  });

  it('a chain cut off below a signed point', async () => {
    const table = await checkpointed();
    for (const sequence of [7, 8]) {
      const link = linkAt(table, 'user', sequence);
      const record = recordOf(table, link);
      table.items.delete(`${link.pk}\u0000${link.sk}`);
      table.items.delete(`${record.pk}\u0000${record.sk}`);
    }
    const head = table.items.get(`${keys.activityChain.head('user', client).pk}\u0000HEAD`) as TableItem;
    Object.assign(head, { sequence: 6, hash: linkAt(table, 'user', 6).hash });
    expect(await verify(table)).toMatchObject({ broken: { reason: 'checkpoint-mismatch', detail: expect.stringContaining('cut off') } });
  });

  it('an edited, a forged, and a deleted checkpoint', async () => {
    const edited = await checkpointed();
    (checkpoints(edited)[0] as TableItem).sequence = 4;
    expect(await verify(edited)).toMatchObject({ broken: { reason: 'checkpoint-forged' } });

    const forged = await checkpointed();
    const other = createLocalKeyService({ dataDir: mkdtempSync(join(tmpdir(), 'verity-audit-other-')) });
    const dayLater = { now: () => new Date(now.getTime() + 25 * 3600_000) }; // a quiet head is signed again daily
    expect(await writeCheckpoint({ table: forged, clock: dayLater, keys: other }, 'user', client, signingKeyId)).toBe(true);
    expect(await verify(forged)).toMatchObject({ broken: { reason: 'checkpoint-forged' } });

    const deleted = await checkpointed();
    const first = checkpoints(deleted).sort((a, b) => (a.sk < b.sk ? -1 : 1))[0] as TableItem;
    deleted.items.delete(`${first.pk}\u0000${first.sk}`);
    expect(await verify(deleted)).toMatchObject({ broken: { reason: 'checkpoint-missing' } });
  });
});
