import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableStore, TransactOperation } from '#core/ports/table-store.ts';
import { readPayload } from '#core/store/entities/payload.ts';
import { keys } from '#core/store/keys.ts';
import { readAll } from '#core/store/paging.ts';
import type { MigrationSubmission } from '#shared/contract/entities/migrations.ts';
import { readExportRows } from '../../lambdas/migrations/format/index.ts';
import { createRowImporter, legacyPayloadReference, resultOfParseFailure, type RowEntry, type RowResult } from '../../lambdas/migrations/import/index.ts';
import { runMigrationImport } from '../../lambdas/migrations/job/import-job.ts';
import { craftedExport, sampleBytes } from '../../scripts/migration/sample-rows.ts';
import { platformFleet } from './support/platform-fleet.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * The migration import in batches (lambdas/migrations/import/recording-batch.ts, the job's read-ahead): rows imported
 * together answer exactly what they answer one at a time, a row of a batch that fails does not take the others with
 * it, and an invocation killed in the middle of a batch resumes with one result per row and every count once.
 */
let crafted: RunTenant;
let alone: RunTenant;
let batches: RunTenant;

const OFF = { disable_onboarding: false, disable_offboarding: false, disable_payloads: false };
const ON = { disable_onboarding: true, disable_offboarding: true, disable_payloads: true };
const HEADER = `${JSON.stringify({ kind: 'verity-legacy-export', version: 1 })}\n`;
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$' + 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

async function* bytesOf(lines: readonly string[]): AsyncGenerator<Uint8Array> {
  for (const line of lines) yield Buffer.from(line, 'utf8');
}

/** Imports lines as the job does: read ahead in batches of `size` rows, each batch through `importRows` (or row by row). */
async function importLines(into: RunTenant, lines: readonly string[], settings: typeof OFF, how: { size: number } | 'row by row', table?: TableStore): Promise<RowResult[]> {
  const deps = table === undefined ? into.deps : { ...into.deps, table };
  const importer = createRowImporter(deps, { client: into.client, migrationReference: `batches-${Date.now()}`, settings, now: new Date() });
  const results: RowResult[] = [];
  let batch: RowEntry[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const answers = await importer.importRows?.(batch);
    expect(answers).toHaveLength(batch.length);
    for (const answer of answers ?? []) {
      expect(answer).toHaveLength(1);
      results.push(...answer);
    }
    batch = [];
  };
  for await (const parsed of readExportRows(bytesOf(lines))) {
    if (!parsed.ok) {
      await flush();
      results.push(resultOfParseFailure(parsed));
    } else if (how === 'row by row') {
      results.push(...(await importer.importRow(parsed.value, parsed.row)));
    } else {
      batch.push({ row: parsed.row, value: parsed.value });
      if (batch.length >= how.size) await flush();
    }
  }
  await flush();
  await importer.finish();
  return results;
}

/** A small export of one group, user and device, then `count` recordings of that device (one in five without media). */
function fleetLines(run: string, count: number, extra: (index: number) => Record<string, unknown> = () => ({})): string[] {
  const recording = (index: number) => {
    const media = sampleBytes(index + 1, 300);
    const recorded = index % 5 === 4;
    return {
      kind: 'recording',
      legacy_payload_reference: `${run}-rec-${index}`,
      payload_type: 'Photo',
      legacy_state: recorded ? 'Recorded' : 'Processed',
      device_reference: `${run}-device`,
      meta: { payload_time: new Date(Date.UTC(2024, 0, 1 + (index % 40), 9)).toISOString(), payload_notes: `photo ${index}` },
      ...(recorded ? {} : { checksum: createHashHex(media), media: { content_type: 'image/png', data: media.toString('base64') } }),
      ...extra(index),
    };
  };
  return [
    HEADER,
    { kind: 'group', group_reference: `${run}-group` },
    { kind: 'device_user', device_user_reference: `${run}-user`, group: `${run}-group`, services: ['photos'], is_active: true },
    { kind: 'device', device_reference: `${run}-device`, device_user_reference: `${run}-user`, is_deactivated: false },
    ...Array.from({ length: count }, (_, index) => recording(index)),
  ].map((line) => (typeof line === 'string' ? line : `${JSON.stringify(line)}\n`));
}

const createHashHex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The tenant's stored recordings and its payload totals (internal statistics: each recording counted once). */
async function stored(of: RunTenant) {
  const payloads = (await readAll(of.deps.table, keys.payload.list(of.client))).map(readPayload);
  const totals = await of.deps.table.get(keys.metrics.totals(of.client), { consistent: true });
  return { payloads, counted: Number(totals?.payloads ?? 0) };
}

beforeAll(async () => {
  [crafted, alone, batches] = await Promise.all([createRunTenant('migbatch-crafted'), createRunTenant('migbatch-alone'), createRunTenant('migbatch')]);
  await Promise.all([platformFleet(crafted), platformFleet(alone)]);
});
afterAll(async () => {
  await Promise.all([crafted, alone, batches].map((tenant) => tenant?.close()));
});

describe('rows imported together', () => {
  it('answer, row by row, what each answers on its own: the crafted export (same device, user and recording on several rows of a batch)', async () => {
    const lines = craftedExport().map((entry) => entry.line);
    for (const settings of [OFF, ON]) {
      const together = await importLines(crafted, lines, settings, { size: 100 });
      const oneByOne = await importLines(alone, lines, settings, 'row by row');
      // Messages alike but for the payload references, which are the tenant's own.
      const seen = (results: RowResult[]) => results.map((result) => [result.row, result.type, result.isNewOrUpdated, result.message?.replace(/payload [0-9a-f-]{36}/, 'payload …')]);
      expect(seen(together)).toEqual(seen(oneByOne));
      expect(together.map((result) => [result.row, result.type])).toEqual(craftedExport().slice(1).map((entry, index) => [index + 2, settings === OFF ? entry.first : entry.second]));
    }
    // The same recordings and counts in both tenants.
    const [a, b] = [await stored(crafted), await stored(alone)];
    expect(a.payloads.map((payload) => [payload.legacy_payload_reference, payload.payload_state, payload.second_party_numbers]).sort()).toEqual(
      b.payloads.map((payload) => [payload.legacy_payload_reference, payload.payload_state, payload.second_party_numbers]).sort(),
    );
    expect(a.counted).toBe(b.counted);
    expect(a.payloads.every((payload) => payload.metrics_pending === undefined)).toBe(true);
  }, 120_000);

  it('give a failing row its error and the rest of the batch its results: malware, a missing device, a recording written meanwhile', async () => {
    const run = `f${Date.now().toString(36)}`;
    const infected = Buffer.from(`${EICAR}\n`, 'latin1');
    const lines = fleetLines(run, 40, (index) =>
      index === 7
        ? { checksum: createHashHex(infected), media: { content_type: 'image/png', data: infected.toString('base64') } }
        : index === 12
          ? { device_reference: `${run}-nowhere` }
          : {},
    );
    // Row 20 (recording 16) is loaded first on its own; the batch's reads are then made blind to it, as if it were
    // written between the batch's read and its write: the transaction holding it fails, and its rows are judged again.
    const loadedAlready = 16;
    await importLines(batches, [HEADER, ...lines.slice(1, 4), lines[4 + loadedAlready] as string], OFF, 'row by row');
    const hidden = keys.payload.key(batches.client, legacyPayloadReference(batches.client, `${run}-rec-${loadedAlready}`));
    const blind: TableStore = {
      ...batches.deps.table,
      batchGet: async (wanted, options) => (await batches.deps.table.batchGet(wanted, options)).filter((item) => item.pk !== hidden.pk || item.sk !== hidden.sk),
    };
    const results = await importLines(batches, lines, OFF, { size: 100 }, blind);
    expect(results.map((result) => result.row)).toEqual(Array.from({ length: 43 }, (_, index) => index + 2));
    const ofRecording = (index: number) => results[3 + index] as RowResult;
    expect(ofRecording(7)).toMatchObject({ kind: 'error', type: 'Error', message: expect.stringMatching(/malware scan found EICAR/) });
    expect(ofRecording(12)).toMatchObject({ kind: 'error', type: 'Error', message: `device_reference: No device ${run}-nowhere (on an earlier row or on Verity)` });
    expect(ofRecording(loadedAlready)).toMatchObject({ kind: 'warning', type: 'PayloadAlreadyLoaded' });
    const others = Array.from({ length: 40 }, (_, index) => index).filter((index) => ![7, 12, loadedAlready].includes(index));
    expect(others.map((index) => ofRecording(index).type)).toEqual(others.map((index) => (index % 5 === 4 ? 'RecordedPayloadCreated' : 'PayloadCreated')));

    const { payloads } = await stored(batches);
    const mine = payloads.filter((payload) => payload.legacy_payload_reference?.startsWith(`${run}-`));
    expect(mine).toHaveLength(38);
    expect(mine.map((payload) => payload.legacy_payload_reference)).not.toContain(`${run}-rec-7`);
    expect(mine.every((payload) => payload.metrics_pending === undefined)).toBe(true);
    // Each new recording with its retention due marker, written in its transaction.
    for (const payload of mine) {
      const marker = await batches.deps.table.get(keys.retentionDue.key(batches.client, keys.payload.key(batches.client, payload.payload_reference), 'payload_time'), { consistent: true });
      expect(marker, payload.legacy_payload_reference).toMatchObject({ record_type: 'PayloadData', base_time: payload.payload_time });
    }
  }, 120_000);
});

async function submit(into: RunTenant, body: string): Promise<string> {
  const bytes = Buffer.from(body, 'utf8');
  const created = await into.call('POST', '/migrations', into.admin, { filename: 'batches.ndjson', size_bytes: bytes.length });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const submission = created.body as unknown as MigrationSubmission;
  const upload = await fetch(submission.upload_url, { method: 'PUT', headers: submission.upload_headers, body: bytes });
  expect(upload.status).toBe(200);
  return submission.migration.migration_reference;
}

describe('an import killed in the middle of a batch', () => {
  it('resumes with exactly one result per row, and every recording stored and counted once', async () => {
    const into = await createRunTenant('migbatch-kill');
    try {
      const run = `k${Date.now().toString(36)}`;
      const lines = fleetLines(run, 150);
      const reference = await submit(into, lines.join(''));
      const input = { client: into.client, migration_reference: reference };
      // The process dies as the second transaction of new recordings is sent: the first is written, the rest are not,
      // and no result of the batch is (the first batch's results may be, by the time it dies).
      let creations = 0;
      const dying: TableStore = {
        ...into.deps.table,
        transactWrite: async (operations: readonly TransactOperation[]) => {
          if (operations.some((operation) => operation.kind === 'put' && operation.item.entity === 'Payload')) {
            creations += 1;
            if (creations === 4) throw new Error('killed');
          }
          return into.deps.table.transactWrite(operations);
        },
      };
      await expect(runMigrationImport({ ...into.deps, table: dying }, input, createRowImporter)).rejects.toThrow('killed');
      const before = await stored(into);
      expect(before.payloads.length).toBeGreaterThan(0);
      expect(before.payloads.length).toBeLessThan(150);

      expect(await runMigrationImport(into.deps, input, createRowImporter)).toMatchObject({ migration_state: 'Migrated' });
      const migration = (await into.call('GET', `/migrations/${reference}`, into.admin)).body;
      expect(migration).toMatchObject({ migration_state: 'Migrated', progress: { rows_read: 154 }, counters: { payloads_total: 150 } });
      const results: Array<Record<string, unknown>> = [];
      let cursor: string | undefined;
      do {
        const page = await into.call('GET', `/migrations/${reference}/results?limit=100${cursor === undefined ? '' : `&last_key=${encodeURIComponent(cursor)}`}`, into.admin);
        results.push(...(page.body.data as Array<Record<string, unknown>>));
        cursor = page.body.last_key as string | undefined;
      } while (cursor !== undefined);
      expect(results.map((result) => result.row)).toEqual(Array.from({ length: 153 }, (_, index) => index + 2));
      // A recording written before the kill but not resulted answers "loaded"; every other one was created on resume.
      const loaded = results.filter((result) => result.type === 'PayloadAlreadyLoaded').map((result) => result.reference);
      const writtenBefore = new Set(before.payloads.map((payload) => payload.legacy_payload_reference));
      for (const legacy of loaded) expect(writtenBefore.has(legacy as string)).toBe(true);
      expect(results.filter((result) => result.kind === 'error')).toEqual([]);

      const after = await stored(into);
      expect(after.payloads).toHaveLength(150);
      expect(after.payloads.every((payload) => payload.metrics_pending === undefined)).toBe(true);
      // 150 recordings, one in five Recorded (never counted): 120 counted, each once, the ones written before the kill too.
      expect(after.counted).toBe(120);
    } finally {
      await into.close();
    }
  }, 180_000);
});
