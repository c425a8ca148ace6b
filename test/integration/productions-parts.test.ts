import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserPrincipal } from '#core/auth/principal.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { Production, ProductionDownload } from '#shared/contract/entities/productions.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import { processPayload } from '../../lambdas/payloads/processing/processing.ts';
import { registerPayload } from '../../lambdas/payloads/processing/registration.ts';
import { createSearchProduction } from '../../lambdas/cases/productions/productions-service.ts';
import { productionJob } from '../../lambdas/cases/productions/production-job.ts';
import { mustRun } from '../../lambdas/transfers/packaging/outside-tools.testkit.ts';
import { portalUserItem } from '../../scripts/admin/tenant-items.ts';
import { adminCaller } from './support/admin-caller.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { tempDir, wav } from './transfer-job-fixtures.ts';

/**
 * Large productions in parts (docs/productions.md "Parts") on the local stack: with a small part bound (by documents,
 * then by bytes) six recordings are delivered as three self-contained archives, each opened by 7zz and checked by
 * `sha256sum -c` on its own manifest, its DAT parsed by Python's csv with the Concordance delimiters and its EDRM XML
 * by xml.etree; the control numbers continue across the parts, and the last part's production manifest names every
 * part and every file with the SHA-256 found on disk.
 */
let tenant: RunTenant;
let deps: Dependencies;
let officer: string;
const CUSTODIAN = 'alice';
const DEVICE = 'dev-parts';
const SIZE = 30_000;
const seeded: Array<{ reference: string; sha256: string }> = [];

async function record(minute: number): Promise<void> {
  const { client } = tenant;
  const { kek, kekId } = await deviceKeysOf(deps, client);
  const reference = ulid();
  const content = wav(SIZE);
  const sealed = sealPayload({ kek, client, keyId: kekId, content, meta: { payload_time: `2026-04-20T10:${String(minute).padStart(2, '0')}:00.000Z`, second_parties: [{ phone_number: '+447700900123', direction: 'O' }] } });
  await deps.blobs.put('raw', payloadObjectKey(client, reference), sealed.ciphertext);
  await registerPayload(deps, { client, deviceReference: DEVICE }, { payload_reference: reference, payload_type: 'Call', ...sealed.registration } as never);
  await processPayload(deps, client, reference);
  seeded.push({ reference, sha256: createHash('sha256').update(content).digest('hex') });
}

const PYTHON_CHECK = String.raw`
import csv, json, os, sys
import xml.etree.ElementTree as ET
root = sys.argv[1]
with open(os.path.join(root, 'DATA', 'loadfile.dat'), encoding='utf-8-sig', newline='') as handle:
    rows = list(csv.reader(handle, delimiter='\x14', quotechar='\u00fe'))
header, body = rows[0], rows[1:]
xml = [d.get('DocID') for d in ET.parse(os.path.join(root, 'DATA', 'loadfile.xml')).getroot().iter('Document')]
print(json.dumps({'rows': [dict(zip(header, row)) for row in body], 'xml': xml}))
`;

/**
 * Runs one search production with the given part bounds: recorded Pending by the service (its job not started on the
 * stack), then its job run here with the bounds in its configuration.
 */
async function producedInParts(bounds: { bytes: number; documents: number }): Promise<Production> {
  const principal: UserPrincipal = { kind: 'user', subject: 'officer', email: 'officer@example.com', client: tenant.client, groups: ['admin'], tokenIssuer: 'test' };
  const quiet = { ...deps, jobs: { start: async () => undefined } };
  const created = await createSearchProduction(adminCaller(quiet, tenant.client, 'productions:Create', principal), {
    control_prefix: 'PART',
    destination: { type: 'Download' },
    criteria: { custodians: [CUSTODIAN], from: '2026-04-01T00:00:00.000Z', to: '2026-04-30T23:59:59.000Z', payload_types: ['Call'] },
  });
  const config = { ...deps.config, PRODUCTION_PART_BYTES: bounds.bytes, PRODUCTION_PART_DOCUMENTS: bounds.documents };
  const result = await productionJob({ ...deps, config }, { client: tenant.client, production_reference: created.production_reference });
  expect(result, JSON.stringify(result)).toMatchObject({ production_state: 'Succeeded' });
  const answer = await tenant.call('GET', `/productions/${created.production_reference}`, officer);
  expect(answer.status).toBe(200);
  return Production.parse(answer.body);
}

/** Downloads every part through the API's links and unpacks each with 7-Zip; answers the folders in part order. */
async function partsOf(production: Production): Promise<Array<{ name: string; root: string }>> {
  const link = await tenant.call('GET', `/productions/${production.production_reference}/download`, officer);
  expect(link.status, JSON.stringify(link.body)).toBe(200);
  const download = ProductionDownload.parse(link.body);
  const parts = download.parts ?? [];
  const unpacked: Array<{ name: string; root: string }> = [];
  for (const part of parts) {
    const response = await fetch(part.url);
    expect(response.status).toBe(200);
    const zip = join(tempDir('parts-zip'), part.file_name);
    writeFileSync(zip, Buffer.from(await response.arrayBuffer()));
    const root = tempDir('parts-open');
    mustRun('7zz', ['x', `-o${root}`, zip]);
    unpacked.push({ name: part.file_name, root });
  }
  return unpacked;
}

/** Checks the three parts with the outside tools; answers the DocIDs per part. */
function checkParts(production: Production, parts: Array<{ name: string; root: string }>): string[][] {
  const reference = production.production_reference;
  expect(parts.map((part) => part.name)).toEqual([1, 2, 3].map((index) => `${reference}_part00${index}.zip`));
  const perPart: string[][] = [];
  for (const part of parts) {
    // Each part is self-contained: its own manifest checks every file in it.
    expect(execFileSync('sha256sum', ['--check', '--strict', 'manifest.sha256'], { cwd: part.root }).toString()).not.toMatch(/FAILED/);
    const checked = JSON.parse(mustRun('python3', ['-c', PYTHON_CHECK, part.root])) as { rows: Array<Record<string, string>>; xml: string[] };
    const ids = checked.rows.map((row) => row.DocID ?? '');
    expect(checked.xml).toEqual(ids);
    for (const row of checked.rows) {
      const onDisk = createHash('sha256').update(readFileSync(join(part.root, row.NativePath ?? ''))).digest('hex');
      expect(onDisk).toBe(seeded.find((entry) => entry.reference === row.PayloadReference)?.sha256);
    }
    perPart.push(ids);
  }
  // The production's manifest, in the last part: every part and every file, each SHA-256 as found in the parts.
  const last = parts.at(-1) as { root: string };
  const manifest = JSON.parse(readFileSync(join(last.root, 'production-manifest.json'), 'utf8')) as {
    production_reference: string;
    parts: Array<{ part: number; archive: string; control_first: string; control_last: string; files: Array<{ path: string; sha256: string }> }>;
  };
  expect(manifest.production_reference).toBe(reference);
  expect(manifest.parts.map((part) => [part.part, part.archive, part.control_first, part.control_last])).toEqual(perPart.map((ids, index) => [index + 1, parts[index]?.name, ids[0], ids.at(-1)]));
  for (const [index, listed] of manifest.parts.entries()) {
    const root = parts[index]?.root ?? '';
    const natives = listed.files.filter((file) => file.path.startsWith('NATIVES/'));
    expect(natives.map((file) => file.path)).toEqual((perPart[index] ?? []).map((id) => `NATIVES/${id}.wav`));
    for (const file of listed.files) expect(createHash('sha256').update(readFileSync(join(root, file.path))).digest('hex'), file.path).toBe(file.sha256);
  }
  return perPart;
}

beforeAll(async () => {
  tenant = await createRunTenant('parts');
  deps = tenant.deps;
  const { client } = tenant;
  const now = new Date().toISOString();
  await deps.table.put({ ...keys.deviceUser.item(client, CUSTODIAN), client, device_user_reference: CUSTODIAN, first_name: 'Alice', surname: 'Archer', is_active: true, services: [], updated_at: now });
  await deps.table.put({ ...keys.device.item(client, DEVICE), client, device_reference: DEVICE, device_user_reference: CUSTODIAN, phone_numbers: [{ phone_number: '+447700900111' }] });
  await deps.table.put(portalUserItem({ sub: 'officer', email: 'officer@example.com', client, roles: ['admin'] }, now, 'seed') as never);
  officer = await portalTokenFor(client, { sub: 'officer', email: 'officer@example.com', groups: ['admin'] });
  for (let minute = 1; minute <= 6; minute += 1) await record(minute);
}, 180_000);

afterAll(async () => {
  await tenant?.close();
});

describe('productions in parts', () => {
  it('splits by documents: six recordings at two a part are three self-contained archives, numbered on across them', async () => {
    const production = await producedInParts({ bytes: 1_000_000_000, documents: 2 });
    expect(production).toMatchObject({ documents_done: 6, control_first: 'PART00000001', control_last: 'PART00000006' });
    const parts = await partsOf(production);
    expect(production.delivered_files).toEqual(parts.map((part) => part.name));
    expect(checkParts(production, parts)).toEqual([
      ['PART00000001', 'PART00000002'],
      ['PART00000003', 'PART00000004'],
      ['PART00000005', 'PART00000006'],
    ]);
  }, 180_000);

  it("splits by bytes: a part's natives stay within the bound", async () => {
    // Two recordings (a little over 30,000 bytes each) fit in 65,000 bytes; a third would not.
    const production = await producedInParts({ bytes: 65_000, documents: 10_000 });
    const parts = await partsOf(production);
    const ids = checkParts(production, parts);
    expect(ids.map((part) => part.length)).toEqual([2, 2, 2]);
  }, 180_000);
});
