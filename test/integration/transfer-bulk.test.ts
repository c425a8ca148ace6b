import { createServer, connect, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError, type TableStore } from '#core/ports/table-store.ts';
import { readTransferFile, type TransferFileItem } from '#core/store/entities/transfer-file.ts';
import { keys } from '#core/store/keys.ts';
import { TransferManifest } from '#shared/contract/entities/transfer-manifest.ts';
import { openDestination, type Destination } from '../../lambdas/transfers/delivery/index.ts';
import type { DestinationOpener } from '../../lambdas/transfers/job/context.ts';
import { fileWriter } from '../../lambdas/transfers/job/file-writes.ts';
import { FILES_AT_ONCE, transferJob } from '../../lambdas/transfers/job/transfer-job.ts';
import { sha256sum } from '../../lambdas/transfers/packaging/outside-tools.testkit.ts';
import type { LocalSftp } from '../../scripts/local/sftp.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { TENANT_STAND_IN_HOST } from './support/tenant-stand-ins.ts';
import { addDevice, capturingJobs, pendingTransfer, receiverSftp, record, runToEnd, storedTransfer, wav, type Recording } from './transfer-job-fixtures.ts';

/**
 * Small recordings in bulk: a transfer delivers many per connection and several at once, and every guarantee of one
 * file at a time holds (temporary name then rename, never replace, each file's checksums, exactly once, resumable).
 * The receiver is the SFTP stand-in behind a counting TCP relay, so the connections are the server's own count.
 */
const RECORDINGS = 12;
let tenant: RunTenant;
let deps: Dependencies;
let sftp: LocalSftp;
let relay: Server;
let connections = 0;
const recordings: Recording[] = [];

async function createConfig(reference: string, root: string): Promise<void> {
  const created = await tenant.call('POST', `/transfer_configs/${reference}`, tenant.admin, {
    schedule: '',
    transfer_type: 'Payload',
    target_type: 'SFTP',
    payload_types: ['Call'],
    transfer_file_format: 'Uncompressed',
    params: { server: TENANT_STAND_IN_HOST, port: (relay.address() as AddressInfo).port, root_directory: root, username: sftp.username, host_key_fingerprint: sftp.hostKeyFingerprint },
    secured_data: { sftp_password: sftp.password },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

const filesOf = async (transferId: string): Promise<TransferFileItem[]> =>
  (await deps.table.query({ ...keys.transferFile.list(tenant.client, transferId), consistent: true, limit: 100 })).items.map(readTransferFile);

/** How many `transfer` audit records each recording's payload holds. */
async function transfersAudited(): Promise<number[]> {
  const counts: number[] = [];
  for (const recording of recordings) {
    const { items } = await deps.table.query({ partition: keys.payload.key(tenant.client, recording.reference).pk, sort: { beginsWith: keys.payload.auditPrefix }, consistent: true });
    counts.push(items.filter((item) => item.action === 'transfer').length);
  }
  return counts;
}

/** Counts the table's transactions (the file writer's group commits among them). */
function countingTransactions(table: TableStore): { table: TableStore; transactions: () => number } {
  let count = 0;
  return {
    table: { ...table, get: table.get.bind(table), put: table.put.bind(table), update: table.update.bind(table), delete: table.delete.bind(table), query: table.query.bind(table), batchGet: table.batchGet.bind(table), transactWrite: (operations) => ((count += 1), table.transactWrite(operations)) },
    transactions: () => count,
  };
}

beforeAll(async () => {
  tenant = await createRunTenant('xbulk');
  deps = tenant.deps;
  sftp = await receiverSftp();
  // Every connection to the receiver passes here and is counted.
  relay = createServer((socket) => {
    connections += 1;
    const upstream = connect(sftp.port, sftp.host);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, TENANT_STAND_IN_HOST, resolve));
  await addDevice(deps, tenant.client);
  for (let index = 0; index < RECORDINGS; index += 1) recordings.push(await record(deps, tenant.client, 'Call', wav(2_000 + index)));
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => relay?.close(resolve));
  await sftp?.stop();
  await tenant?.close();
});

describe('small recordings in bulk', () => {
  it('delivers them over one connection, several at once, each exactly once with its checksums, in few transactions', async () => {
    await createConfig('bulk', '/bulk');
    const auditedBefore = await transfersAudited();
    let inFlight = 0;
    let mostAtOnce = 0;
    const watching: DestinationOpener = async (config, secrets) => {
      const real = await openDestination({ config: deps.config, logger: deps.logger }, config, secrets);
      return {
        ...real,
        exists: (path) => real.exists(path),
        close: () => real.close(),
        put: async (path, body, options) => {
          inFlight += 1;
          mostAtOnce = Math.max(mostAtOnce, inFlight);
          try {
            return await real.put(path, body, options);
          } finally {
            inFlight -= 1;
          }
        },
      };
    };
    const counting = countingTransactions(deps.table);
    const transferId = await pendingTransfer(deps, tenant.client, 'bulk');
    const before = connections;
    const { results } = await runToEnd({ ...deps, table: counting.table }, { client: tenant.client, transfer_id: transferId }, { openDestination: watching });
    expect(results).toEqual([expect.objectContaining({ transfer_state: 'Succeeded', files_handled: RECORDINGS + 2 })]);

    // One connection for the whole run; several files under way at once, never more than the bound.
    expect(connections - before).toBe(1);
    expect(mostAtOnce).toBeGreaterThan(1);
    expect(mostAtOnce).toBeLessThanOrEqual(FILES_AT_ONCE);

    // Each recording arrived once under its own name, as the device made it; nothing temporary is left.
    const folder = join(sftp.root, 'bulk', transferId);
    expect(readdirSync(folder).sort()).toEqual([...recordings.map((recording) => `${recording.reference}.wav`), 'manifest.csv', 'manifest.json'].sort());
    for (const recording of recordings) expect(sha256sum(join(folder, `${recording.reference}.wav`))).toBe(recording.sha256);
    // Each file's record says what arrived: delivered once, on the first attempt, with the checksum read on disk.
    const files = await filesOf(transferId);
    expect(files).toHaveLength(RECORDINGS + 2);
    for (const file of files) {
      expect(file).toMatchObject({ file_state: 'Delivered', attempts: 1 });
      expect(file.checksums.delivered_sha256).toBe(sha256sum(join(sftp.root, 'bulk', file.relative_path)));
      expect(file.staged).toBeUndefined();
    }
    expect(await storedTransfer(deps, tenant.client, transferId)).toMatchObject({ files_total: RECORDINGS + 2, files_done: RECORDINGS + 2 });
    // The manifest lists exactly what arrived; every payload's audit holds one more transfer.
    const manifest = TransferManifest.parse(JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')));
    expect(manifest.files.map((file) => file.payload_reference).sort()).toEqual(recordings.map((recording) => recording.reference).sort());
    expect(await transfersAudited()).toEqual(auditedBefore.map((count) => count + 1));
    // Files written at the same moment share a transaction: fewer than the three writes each file makes alone.
    expect(counting.transactions()).toBeLessThan(3 * (RECORDINGS + 2));
  }, 120_000);

  it('a run dying in the middle of a batch has recorded only what was renamed into place; a re-run completes it, none twice', async () => {
    await createConfig('dying', '/dying');
    const auditedBefore = await transfersAudited();
    let stuck!: (error: Error) => void;
    const never = new Promise<never>((_, reject) => (stuck = reject));
    never.catch(() => undefined);
    const reached = new Set<string>();
    let started = 0;
    // Puts in the order they start: the first four arrive; the fifth stops mid-body; the sixth once it is staged but
    // before its rename; the seventh after its rename, before the job hears of it; every later one before a byte.
    const dying: DestinationOpener = async (config, secrets) => {
      const real = await openDestination({ config: deps.config, logger: deps.logger }, config, secrets);
      const hang = async (how: string): Promise<never> => {
        reached.add(how);
        return never;
      };
      return {
        ...real,
        exists: (path) => real.exists(path),
        close: () => real.close(),
        put: async (path, body, options) => {
          const index = started++;
          if (index < 4) return real.put(path, body, options);
          if (index === 4) {
            async function* halfThenNothing() {
              const reader = (body as ReadableStream<Uint8Array>).getReader();
              const first = await reader.read();
              if (first.value !== undefined) yield first.value.subarray(0, 100);
              await hang('mid-body');
            }
            return real.put(path, halfThenNothing());
          }
          if (index === 5) return real.put(path, body, { beforeCommit: async (sent) => (await options?.beforeCommit?.(sent), hang('staged')) });
          if (index === 6) return real.put(path, body, options).then(() => hang('renamed'));
          return hang(`before-${index}`);
        },
      } satisfies Destination;
    };
    const transferId = await pendingTransfer(deps, tenant.client, 'dying');
    const dead = transferJob({ ...deps, jobs: capturingJobs() }, { client: tenant.client, transfer_id: transferId }, { openDestination: dying });
    await vi.waitFor(() => expect([...reached].sort()).toEqual(['before-10', 'before-11', 'before-7', 'before-8', 'before-9', 'mid-body', 'renamed', 'staged'].sort()), { timeout: 60_000, interval: 100 });
    await vi.waitFor(async () => expect((await filesOf(transferId)).filter((file) => file.file_state === 'Delivered')).toHaveLength(4), { timeout: 30_000, interval: 100 });

    // The run is as good as dead here. What it recorded delivered is at the receiver under its name, as recorded.
    const folder = join(sftp.root, 'dying', transferId);
    const atDeath = await filesOf(transferId);
    for (const file of atDeath.filter((candidate) => candidate.file_state === 'Delivered')) {
      expect(sha256sum(join(sftp.root, 'dying', file.relative_path))).toBe(file.checksums.delivered_sha256);
    }
    // Renamed into place without a record: only the seventh, which was staged first (the re-run records it from that).
    const arrived = readdirSync(folder).filter((name) => !name.endsWith('.partial'));
    const recordedNames = atDeath.filter((file) => file.file_state === 'Delivered').map((file) => file.relative_path.split('/').pop());
    const unrecorded = arrived.filter((name) => !recordedNames.includes(name));
    expect(unrecorded).toHaveLength(1);
    expect(atDeath.filter((file) => file.file_state === 'Pending' && file.staged?.relative_path === `${transferId}/${unrecorded[0]}`)).toHaveLength(1);
    expect(await storedTransfer(deps, tenant.client, transferId)).toMatchObject({ transfer_state: 'InProgress', files_done: 4 });

    // Its lease runs out; a re-run resumes from the files' states and sends only what had not arrived.
    let resent = 0;
    const countingPuts: DestinationOpener = async (config, secrets) => {
      const real = await openDestination({ config: deps.config, logger: deps.logger }, config, secrets);
      return { ...real, exists: (path) => real.exists(path), close: () => real.close(), put: (path, body, options) => ((resent += 1), real.put(path, body, options)) };
    };
    const later = { now: () => new Date(Date.now() + 10 * 60_000) };
    const resumed = await runToEnd({ ...deps, clock: later }, { client: tenant.client, transfer_id: transferId }, { openDestination: countingPuts });
    expect(resumed.results.at(-1)).toMatchObject({ transfer_state: 'Succeeded' });
    // Twelve recordings: four arrived and recorded, one arrived and completed from its staging, seven sent; two manifests.
    expect(resent).toBe(RECORDINGS - 5 + 2);

    // The dead run wakes: it has lost the lease and writes nothing more.
    stuck(new Error('the process was killed'));
    expect(await dead).toMatchObject({ transfer_id: transferId, stopped: expect.stringContaining('taken over') });

    // Every recording once, under its own name (no second copy), whole; no temporary file; one more audited transfer each.
    expect(readdirSync(folder).sort()).toEqual([...recordings.map((recording) => `${recording.reference}.wav`), 'manifest.csv', 'manifest.json'].sort());
    for (const recording of recordings) expect(sha256sum(join(folder, `${recording.reference}.wav`))).toBe(recording.sha256);
    const files = await filesOf(transferId);
    expect(files.every((file) => file.file_state === 'Delivered' && file.unrecorded_arrivals === undefined && file.staged === undefined)).toBe(true);
    expect(await storedTransfer(deps, tenant.client, transferId)).toMatchObject({ files_total: RECORDINGS + 2, files_done: RECORDINGS + 2 });
    expect(await transfersAudited()).toEqual(auditedBefore.map((count) => count + 1));
    expect(existsSync(join(folder, 'again-2-1'))).toBe(false);
  }, 180_000);

  it('file writes made at the same moment go in one transaction; a failed condition of one leaves the others written', async () => {
    const transferId = await pendingTransfer(deps, tenant.client, 'bulk');
    const leaseId = 'lease-of-this-test';
    await deps.table.update(keys.transfer.key(tenant.client, transferId), { set: { lease_id: leaseId } });
    const counting = countingTransactions(deps.table);
    const lease = { kind: 'expression' as const, expression: '#lease = :lease', names: { '#lease': 'lease_id' }, values: { ':lease': leaseId } };
    const write = fileWriter(counting.table, { key: keys.transfer.key(tenant.client, transferId), condition: lease });
    const item = (name: string) => ({ ...keys.transferFile.item(tenant.client, transferId, '1', name), written: name });
    await deps.table.put(item('taken'));
    const outcomes = await Promise.allSettled([
      write({ operations: [{ kind: 'put', item: item('first') }], progress: { add: { files_done: 1 }, at: '2026-01-01T00:00:01.000Z' } }),
      write({ operations: [{ kind: 'put', item: item('taken'), condition: { kind: 'item-not-exists' } }], progress: { add: { files_done: 1 }, at: '2026-01-01T00:00:02.000Z' } }),
      write({ operations: [{ kind: 'put', item: item('third') }], progress: { add: { files_done: 1, files_failed: 1 }, at: '2026-01-01T00:00:03.000Z' } }),
      write({ operations: [{ kind: 'put', item: item('fourth') }] }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(ConditionFailedError);
    // The first went alone (nothing waited); the other three together, refused for the second's sake, then each alone.
    expect(counting.transactions()).toBe(1 + 1 + 3);
    for (const name of ['first', 'third', 'fourth']) expect(await deps.table.get(keys.transferFile.key(tenant.client, transferId, '1', name), { consistent: true })).toBeDefined();
    expect(await storedTransfer(deps, tenant.client, transferId)).toMatchObject({ files_done: 2, files_failed: 1, progress_at: '2026-01-01T00:00:03.000Z' });

    // Without the lease, nothing is written.
    await deps.table.update(keys.transfer.key(tenant.client, transferId), { set: { lease_id: 'someone-else' } });
    const refused = await Promise.allSettled([write({ operations: [{ kind: 'put', item: item('fifth') }] }), write({ operations: [{ kind: 'put', item: item('sixth') }] })]);
    expect(refused.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(await deps.table.get(keys.transferFile.key(tenant.client, transferId, '1', 'fifth'), { consistent: true })).toBeUndefined();
  }, 60_000);
});
