import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import { ledgerEntryToItem } from '#core/store/entities/ledger-entry.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { Production } from '#shared/contract/entities/productions.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import { processPayload } from '../../lambdas/payloads/processing/processing.ts';
import { registerPayload } from '../../lambdas/payloads/processing/registration.ts';
import { createReceiver, mustRun, runTool, type Receiver } from '../../lambdas/transfers/packaging/outside-tools.testkit.ts';
import type { LocalSftp } from '../../scripts/local/sftp.ts';
import { portalUserItem } from '../../scripts/admin/tenant-items.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { jpeg, receiverSftp, tempDir, wav } from './transfer-job-fixtures.ts';

/**
 * Productions end to end on the local stack: a case's records (calls, an SMS, an MMS with an image part) produced by
 * the stack's own job and checked with tools not written for this project: Python's `csv` module with the Concordance
 * delimiters, `xml.etree` for the EDRM XML, Python's `email` parser for the EML files, `sha256sum -c` on the manifest,
 * `gpg` and `7zz` for a delivery to an SFTP server as ZippedWithPassword + PGP. Control numbers continue across a
 * case's productions; a tampered recording fails the production naming it; hostile input answers 4xx.
 */
let tenant: RunTenant;
let other: RunTenant;
let deps: Dependencies;
let officer: string;
let outsider: string;
let sftp: LocalSftp;
let receiver: Receiver;
let caseRef: string;
const ZIP_PASSWORD = `zip-${randomBytes(4).toString('hex')}-Secret`;
const CUSTODIAN = 'alice';
const DEVICE = 'dev-prod';
const COUNTERPARTY = '+447700900124';
const TIME = (minute: number) => `2026-04-20T10:${String(minute).padStart(2, '0')}:00.000Z`;

interface Seeded {
  reference: string;
  type: string;
  content: Buffer;
  sha256: string;
}
const seeded: Seeded[] = [];

/** Seals, uploads, registers and processes one recording of the custodian's phone, with its own meta. */
async function record(type: string, content: Buffer, meta: Record<string, unknown>): Promise<Seeded> {
  const { client } = tenant;
  const { kek, kekId } = await deviceKeysOf(deps, client);
  const reference = ulid();
  const sealed = sealPayload({ kek, client, keyId: kekId, content, meta });
  await deps.blobs.put('raw', payloadObjectKey(client, reference), sealed.ciphertext);
  await registerPayload(deps, { client, deviceReference: DEVICE }, { payload_reference: reference, payload_type: type, ...sealed.registration } as never);
  await processPayload(deps, client, reference);
  const state = (await deps.table.get(keys.payload.key(client, reference)))?.payload_state;
  if (state !== 'Processed') throw new Error(`recording ${reference} ended ${String(state)}`);
  return { reference, type, content, sha256: createHash('sha256').update(content).digest('hex') };
}

/** Waits for the stack's job to end the production, reading it through the API as the portal does. */
async function settled(reference: string, token = officer): Promise<Production> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const answer = await tenant.call('GET', `/productions/${reference}`, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const production = Production.parse(answer.body);
    if (production.production_state !== 'Pending' && production.production_state !== 'InProgress') return production;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`production ${reference} did not finish`);
}

/**
 * The independent check, in Python: the DAT parsed by `csv` with delimiter 0x14 and quote þ, the EDRM XML by
 * `xml.etree`, every EML by the `email` parser (each leaf part's type, file name and decoded bytes' SHA-256).
 */
const PYTHON_CHECK = String.raw`
import csv, email, email.policy, hashlib, json, os, sys
import xml.etree.ElementTree as ET
root = sys.argv[1]
raw = open(os.path.join(root, 'DATA', 'loadfile.dat'), 'rb').read()
with open(os.path.join(root, 'DATA', 'loadfile.dat'), encoding='utf-8-sig', newline='') as handle:
    rows = list(csv.reader(handle, delimiter='\x14', quotechar='\u00fe'))
header, body = rows[0], rows[1:]
documents = ET.parse(os.path.join(root, 'DATA', 'loadfile.xml')).getroot().findall('./Batch/Documents/Document')
xml = []
for document in documents:
    external = document.find('./Files/File[@FileType="Native"]/ExternalFile')
    xml.append({'DocID': document.get('DocID'), 'path': external.get('FilePath') + '/' + external.get('FileName'),
                'size': int(external.get('FileSize')), 'hash': external.get('Hash'),
                'tags': {tag.get('TagName'): tag.get('TagValue') for tag in document.findall('./Tags/Tag')}})
emls = {}
for row in body:
    record = dict(zip(header, row))
    if record['NativePath'].endswith('.eml'):
        with open(os.path.join(root, record['NativePath']), 'rb') as handle:
            message = email.message_from_binary_file(handle, policy=email.policy.default)
        parts = [{'type': part.get_content_type(), 'filename': part.get_filename(),
                  'sha256': hashlib.sha256(part.get_payload(decode=True)).hexdigest()}
                 for part in message.walk() if not part.is_multipart()]
        emls[record['DocID']] = {'from': str(message['From']), 'to': str(message['To']), 'date': str(message['Date']),
                                 'subject': str(message['Subject']), 'multipart': message.is_multipart(), 'parts': parts}
print(json.dumps({'bom': raw[:3] == b'\xef\xbb\xbf', 'header': header, 'rows': [dict(zip(header, row)) for row in body], 'xml': xml, 'emls': emls}))
`;

interface Checked {
  bom: boolean;
  header: string[];
  rows: Array<Record<string, string>>;
  xml: Array<{ DocID: string; path: string; size: number; hash: string; tags: Record<string, string> }>;
  emls: Record<string, { from: string; to: string; date: string; subject: string; multipart: boolean; parts: Array<{ type: string; filename: string | null; sha256: string }> }>;
}

/** Checks an unpacked production with the outside tools; answers what Python read. */
function checkProduction(root: string): Checked {
  // Every file's SHA-256 as the manifest lists it, checked by sha256sum itself.
  const checked = execFileSync('sha256sum', ['--check', '--strict', 'manifest.sha256'], { cwd: root }).toString();
  expect(checked).not.toMatch(/FAILED/);
  const result = JSON.parse(mustRun('python3', ['-c', PYTHON_CHECK, root])) as Checked;
  expect(result.bom).toBe(true);
  const datIds = result.rows.map((row) => row.DocID);
  const xmlIds = result.xml.map((document) => document.DocID);
  // Every DocID once in each load file, the same set in both.
  expect(new Set(datIds).size).toBe(datIds.length);
  expect(new Set(xmlIds).size).toBe(xmlIds.length);
  expect([...xmlIds].sort()).toEqual([...datIds].sort());
  const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as { documents: Array<{ doc_id: string; device_sha256: string; native_sha256: string; payload_reference: string }> };
  for (const row of result.rows) {
    const native = join(root, row.NativePath ?? '');
    const onDisk = mustRun('sha256sum', [native]).split(' ')[0];
    expect(row.NativeSHA256).toBe(onDisk);
    const recording = seeded.find((entry) => entry.reference === row.PayloadReference);
    expect(recording, row.PayloadReference).toBeDefined();
    // The device's own SHA-256: the native itself for a recording, the decoded message content inside an EML.
    expect(row.DeviceSHA256).toBe(recording?.sha256);
    if (row.NativePath?.endsWith('.eml') === true) {
      const eml = result.emls[row.DocID ?? ''];
      expect(eml?.parts.some((part) => part.sha256 === recording?.sha256)).toBe(true);
    } else {
      expect(onDisk).toBe(recording?.sha256);
    }
    const inXml = result.xml.find((document) => document.DocID === row.DocID);
    expect(inXml).toMatchObject({ path: row.NativePath, hash: onDisk, tags: { Custodian: row.Custodian, From: row.From, To: row.To, Date: row.Date } });
    expect(manifest.documents.find((document) => document.doc_id === row.DocID)).toMatchObject({ payload_reference: row.PayloadReference, device_sha256: recording?.sha256, native_sha256: onDisk });
  }
  return result;
}

/** Unpacks a zip with 7-Zip (the password when given) into a fresh folder. */
function unzip(zip: string, password?: string): string {
  const out = tempDir('production-open');
  mustRun('7zz', ['x', ...(password === undefined ? [] : [`-p${password}`]), `-o${out}`, zip]);
  return out;
}

async function downloaded(reference: string): Promise<string> {
  const link = await tenant.call('GET', `/productions/${reference}/download`, officer);
  expect(link.status, JSON.stringify(link.body)).toBe(200);
  const response = await fetch(String(link.body.url));
  expect(response.status).toBe(200);
  const zip = join(tempDir('production-zip'), String(link.body.file_name));
  writeFileSync(zip, Buffer.from(await response.arrayBuffer()));
  return unzip(zip);
}

const production = (body: Record<string, unknown>) => ({ control_prefix: 'ABC', destination: { type: 'Download' }, ...body });

beforeAll(async () => {
  [tenant, other] = await Promise.all([createRunTenant('prod'), createRunTenant('prod-other')]);
  deps = tenant.deps;
  const { client } = tenant;
  const now = new Date().toISOString();
  await deps.table.put({ ...keys.deviceUser.item(client, CUSTODIAN), client, device_user_reference: CUSTODIAN, first_name: 'Alice', surname: 'Archer', is_active: true, services: [], updated_at: now });
  await deps.table.put({ ...keys.device.item(client, DEVICE), client, device_reference: DEVICE, device_user_reference: CUSTODIAN, phone_numbers: [{ phone_number: '+447700900111' }] });
  for (const sub of ['officer', 'outsider']) await deps.table.put(portalUserItem({ sub, email: `${sub}@example.com`, client, roles: ['admin'] }, now, 'seed') as never);
  officer = await portalTokenFor(client, { sub: 'officer', email: 'officer@example.com', groups: ['admin'] });
  outsider = await portalTokenFor(client, { sub: 'outsider', email: 'outsider@example.com', groups: ['admin'] });
  sftp = await receiverSftp();
  receiver = createReceiver(tempDir('production-gpg'));

  seeded.push(await record('Call', wav(40_000), { payload_time: TIME(1), second_parties: [{ phone_number: '+447700900123', direction: 'O' }] }));
  seeded.push(await record('SMS', Buffer.from('See you at ten,\nbring the contract. Þ ® ünïcode'), { payload_time: TIME(2), direction: 'I', thread_id: 't-1', message_parties: [{ phone_number: COUNTERPARTY }] }));
  seeded.push(await record('MMS', jpeg(3_000), { payload_time: TIME(3), direction: 'O', thread_id: 't-1', message_parties: [{ phone_number: COUNTERPARTY }] }));
  seeded.push(await record('Call', wav(5_000), { payload_time: TIME(4), second_parties: [{ phone_number: COUNTERPARTY, direction: 'I' }] }));
  // What the phone saw: two ledger entries of the custodian's phone in the period (one captured, one missing).
  for (const [id, outcome] of [['call-1', 'Captured'], ['call-2', 'Missing']] as const) {
    await deps.table.put(
      ledgerEntryToItem(client, {
        entry_id: id,
        payload_type: 'Call',
        phone_number: '+447700900123',
        direction: 'O',
        start_time: TIME(id === 'call-1' ? 1 : 5),
        duration: 30,
        device_reference: DEVICE,
        device_user_reference: CUSTODIAN,
        outcome,
        reported_at: now,
        outcome_at: now,
        due_at: now,
        day: '2026-04-20',
      }),
    );
  }
  const opened = await tenant.call('POST', '/cases', officer, {
    title: 'Rates enquiry',
    custodians: { device_users: [CUSTODIAN], portal_users: [] },
    period: { from: '2026-04-01T00:00:00Z', to: '2026-04-30T23:59:59Z' },
    payload_types: ['Call', 'SMS', 'MMS'],
    collect_and_hold: false,
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  caseRef = String(opened.body.case_ref);
}, 180_000);

afterAll(async () => {
  await sftp?.stop();
  await Promise.all([tenant?.close(), other?.close()]);
});

describe('productions', () => {
  let first: Production;
  let secondReference = '';

  it("produces a case's records as natives, EML, EDRM XML and DAT that outside tools load and check, with the custodian's ledger", async () => {
    const created = await tenant.call('POST', `/cases/${caseRef}/productions`, officer, production({}));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ production_state: 'Pending', production_kind: 'Case', case_reference: caseRef, documents_total: 4, created_by: 'officer' });
    first = await settled(String(created.body.production_reference));
    expect(first, JSON.stringify(first)).toMatchObject({ production_state: 'Succeeded', documents_done: 4, documents_total: 4, control_first: 'ABC00000001', control_last: 'ABC00000004', failures: [] });

    const root = await downloaded(first.production_reference);
    const checked = checkProduction(root);
    expect(checked.header).toEqual(['DocID', 'PayloadReference', 'PayloadType', 'From', 'To', 'Date', 'Duration', 'Direction', 'Custodian', 'Thread', 'DeviceSHA256', 'NativeSHA256', 'NativePath']);
    // Oldest first, numbered from 1: the call, the SMS, the MMS, the second call.
    expect(checked.rows.map((row) => [row.DocID, row.PayloadType, row.NativePath])).toEqual([
      ['ABC00000001', 'Call', 'NATIVES/ABC00000001.wav'],
      ['ABC00000002', 'SMS', 'NATIVES/ABC00000002.eml'],
      ['ABC00000003', 'MMS', 'NATIVES/ABC00000003.eml'],
      ['ABC00000004', 'Call', 'NATIVES/ABC00000004.wav'],
    ]);
    // A newline inside a field arrives as ®, read back by csv as part of the one field.
    expect(checked.rows[1]).toMatchObject({ Custodian: 'Alice Archer', Direction: 'Inbound', Thread: 't-1', Date: TIME(2) });
    const sms = checked.emls.ABC00000002;
    expect(sms).toMatchObject({ multipart: false, date: 'Mon, 20 Apr 2026 10:02:00 +0000' });
    expect(sms?.from).toContain('447700900124');
    expect(sms?.to).toContain('Alice Archer');
    const mms = checked.emls.ABC00000003;
    expect(mms?.multipart).toBe(true);
    expect(mms?.parts.map((part) => [part.type, part.filename])).toEqual([
      ['text/plain', null],
      ['image/jpeg', 'ABC00000003-part1.jpg'],
    ]);
    expect(mms?.parts[1]?.sha256).toBe(seeded[2]?.sha256);
    // The custodian's capture ledger goes with their recordings, listed in the manifest.
    const ledger = readFileSync(join(root, 'DATA', 'capture-ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(ledger.map((entry) => [entry.entry_id, entry.outcome, entry.device_user_reference])).toEqual([
      ['call-1', 'Captured', CUSTODIAN],
      ['call-2', 'Missing', CUSTODIAN],
    ]);
    expect(readFileSync(join(root, 'manifest.sha256'), 'utf8')).toContain('  DATA/capture-ledger.jsonl\n');
  }, 120_000);

  it("continues the case's control numbers in its next production, and logs both (what, by whom, to whom, which numbers)", async () => {
    const created = await tenant.call('POST', `/cases/${caseRef}/productions`, officer, production({}));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const second = await settled(String(created.body.production_reference));
    secondReference = second.production_reference;
    expect(second).toMatchObject({ production_state: 'Succeeded', control_first: 'ABC00000005', control_last: 'ABC00000008' });
    const log = await tenant.call('GET', `/productions?case_ref=${caseRef}`, officer);
    expect(log.status).toBe(200);
    expect((log.body.data as Production[]).map((entry) => [entry.production_reference, entry.control_first, entry.created_by, entry.destination.type])).toEqual([
      [second.production_reference, 'ABC00000005', 'officer', 'Download'],
      [first.production_reference, 'ABC00000001', 'officer', 'Download'],
    ]);
  }, 120_000);

  it("is seen by the case team only: a tenant admin outside it gets 404 on the case's productions, and none in the log", async () => {
    expect((await tenant.call('GET', `/productions/${first.production_reference}`, outsider)).status).toBe(404);
    expect((await tenant.call('GET', `/productions/${first.production_reference}/download`, outsider)).status).toBe(404);
    expect((await tenant.call('POST', `/cases/${caseRef}/productions`, outsider, production({}))).status).toBe(404);
    expect((await tenant.call('GET', `/productions?case_ref=${caseRef}`, outsider)).status).toBe(404);
    const log = await tenant.call('GET', '/productions', outsider);
    expect((log.body.data as Production[]).filter((entry) => entry.case_reference === caseRef)).toEqual([]);
    expect((await tenant.call('GET', '/productions?result_type=total', outsider)).body).toEqual({ count: 0 });
  });

  it("records each produced recording in its payload audit once per production, by who asked for it", async () => {
    for (const recording of seeded) {
      const audit = await tenant.call('GET', `/payloads/${recording.reference}/audit`, tenant.admin);
      expect(audit.status, JSON.stringify(audit.body)).toBe(200);
      const produced = (audit.body.records as Array<{ action: string; portal_user: string }>).filter((entry) => entry.action === 'production');
      // The case's two productions so far, one record each, by the officer who asked.
      expect(produced.map((entry) => entry.portal_user)).toEqual(['officer', 'officer']);
    }
    const items = (await deps.table.query({ partition: keys.payload.key(tenant.client, seeded[0]?.reference ?? '').pk, sort: { beginsWith: keys.payload.auditPrefix }, consistent: true })).items;
    expect(items.filter((item) => item.action === 'production').map((item) => item.production_reference).sort()).toEqual([first.production_reference, secondReference].sort());
  });

  it('shows a search production or a client copy to whoever asked for it only: another admin gets 404 on read and download, and none in the log or its total', async () => {
    const created = await tenant.call('POST', '/productions', officer, {
      control_prefix: 'SEARCH',
      destination: { type: 'Download' },
      criteria: { custodians: [CUSTODIAN], from: '2026-04-01T00:00:00Z', to: '2026-04-30T23:59:59Z' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const search = await settled(String(created.body.production_reference));
    expect(search).toMatchObject({ production_state: 'Succeeded', production_kind: 'Search', control_first: 'SEARCH00000001' });
    expect((await tenant.call('GET', `/productions/${search.production_reference}/download`, officer)).status).toBe(200);
    for (const token of [outsider, tenant.admin]) {
      expect((await tenant.call('GET', `/productions/${search.production_reference}`, token)).status).toBe(404);
      expect((await tenant.call('GET', `/productions/${search.production_reference}/download`, token)).status).toBe(404);
      const log = await tenant.call('GET', '/productions?limit=100', token);
      expect(log.status).toBe(200);
      expect((log.body.data as Production[]).map((entry) => entry.production_reference)).not.toContain(search.production_reference);
      expect((await tenant.call('GET', '/productions?result_type=total', token)).body).toEqual({ count: 0 });
    }
    const mine = await tenant.call('GET', '/productions?limit=100', officer);
    expect((mine.body.data as Production[]).map((entry) => entry.production_reference)).toContain(search.production_reference);
  }, 120_000);

  it('delivers a client copy (by counterparty number only) to SFTP as ZippedWithPassword + PGP that gpg and 7zz open', async () => {
    const config = await tenant.call('POST', '/transfer_configs/prod-sftp', tenant.admin, {
      schedule: '',
      transfer_type: 'Payload',
      target_type: 'SFTP',
      payload_types: ['Call', 'SMS', 'MMS'],
      pgp_key: receiver.armoredPublicKey,
      transfer_file_format: 'ZippedWithPassword',
      params: { server: sftp.host, port: sftp.port, root_directory: '/productions', username: sftp.username, host_key_fingerprint: sftp.hostKeyFingerprint },
      secured_data: { zip_password: ZIP_PASSWORD, sftp_password: sftp.password },
    });
    expect(config.status, JSON.stringify(config.body)).toBe(201);
    const created = await tenant.call('POST', '/productions', officer, {
      control_prefix: 'CLIENT-1',
      destination: { type: 'Transfer', transfer_config_reference: 'prod-sftp' },
      client_copy: true,
      criteria: { counterparty_numbers: [COUNTERPARTY], from: '2026-04-01T00:00:00Z', to: '2026-04-30T23:59:59Z' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const done = await settled(String(created.body.production_reference));
    // The client's copy is its requester's: another admin does not see it.
    expect((await tenant.call('GET', `/productions/${done.production_reference}`, outsider)).status).toBe(404);
    expect(done).toMatchObject({ production_state: 'Succeeded', production_kind: 'ClientCopy', control_first: 'CLIENT-100000001', control_last: 'CLIENT-100000003' });
    const folder = join(sftp.root, 'productions', done.production_reference);
    expect(readdirSync(folder)).toEqual([`${done.production_reference}.zip.pgp`]);
    const zip = join(tempDir('production-pgp'), `${done.production_reference}.zip`);
    receiver.gpg(['--output', zip, '--decrypt', join(folder, `${done.production_reference}.zip.pgp`)]);
    expect(runTool('7zz', ['t', '-pwrong', zip]).status).not.toBe(0);
    const root = unzip(zip, ZIP_PASSWORD);
    const checked = checkProduction(root);
    // Only the conversations naming the client's number: the SMS, the MMS and the inbound call.
    expect(checked.rows.map((row) => row.PayloadReference)).toEqual([seeded[1]?.reference, seeded[2]?.reference, seeded[3]?.reference]);
  }, 120_000);

  it('fails a production whose stored recording was tampered with, naming it, and delivers nothing', async () => {
    const victim = seeded[3] as Seeded;
    const key = payloadObjectKey(tenant.client, victim.reference);
    const original = await deps.blobs.get('raw', key);
    const bytes = Buffer.concat(await (original?.body.toArray() ?? Promise.resolve([])));
    const tampered = Buffer.from(bytes);
    tampered[tampered.length - 40] = (tampered[tampered.length - 40] ?? 0) ^ 0xff;
    await deps.blobs.put('raw', key, tampered);
    try {
      const created = await tenant.call('POST', `/cases/${caseRef}/productions`, officer, production({}));
      expect(created.status).toBe(201);
      const failed = await settled(String(created.body.production_reference));
      expect(failed.production_state).toBe('Failed');
      expect(failed.failures.map((failure) => failure.payload_reference)).toEqual([victim.reference]);
      expect(failed.error_message).toContain(victim.reference);
      expect((await tenant.call('GET', `/productions/${failed.production_reference}/download`, officer)).status).toBe(409);
    } finally {
      await deps.blobs.put('raw', key, bytes);
    }
  }, 120_000);

  it('answers hostile input with a 4xx and a path: message line, never a 5xx', async () => {
    const refused = async (path: string, body: unknown, status: number, line?: RegExp) => {
      const answer = await tenant.call('POST', path, officer, body);
      expect(answer.status, `${path} ${JSON.stringify(body).slice(0, 200)} -> ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(status);
      if (line !== undefined) expect(String(answer.body.message)).toMatch(line);
    };
    for (const prefix of ['../x', 'a/b', 'A.B', '', 'x'.repeat(21), 'ab c', 'ab\\c', 'ab\u0000']) {
      await refused(`/cases/${caseRef}/productions`, production({ control_prefix: prefix }), 400, /^body\.control_prefix: /m);
    }
    await refused(`/cases/${ulid()}/productions`, production({}), 404);
    // Another tenant's case: as unknown here.
    const theirs = await other.call('POST', '/cases', await portalTokenFor(other.client, { sub: 'officer', email: 'o@example.com', groups: ['admin'] }), {
      title: 'Theirs',
      custodians: { device_users: ['zed'], portal_users: [] },
      period: { from: '2026-04-01T00:00:00Z', to: '2026-04-30T23:59:59Z' },
      payload_types: ['Call'],
    });
    if (theirs.status === 201) await refused(`/cases/${String(theirs.body.case_ref)}/productions`, production({}), 404);
    const period = { from: '2026-04-01T00:00:00Z', to: '2026-04-30T23:59:59Z' };
    await refused('/productions', production({ criteria: { custodians: ['nobody-here'], ...period } }), 400, /^body\.criteria: No records/m);
    await refused('/productions', production({ criteria: { ...period } }), 400, /^body\.criteria\.custodians: /m);
    // 100,000 custodians pass the request size limit (413); 101 are past the list's bound (400).
    await refused('/productions', production({ criteria: { custodians: Array.from({ length: 100_000 }, (_, index) => `user-${index}`), ...period } }), 413);
    await refused('/productions', production({ criteria: { custodians: Array.from({ length: 101 }, (_, index) => `user-${index}`), ...period } }), 400, /^body\.criteria\.custodians: /m);
    await refused('/productions', production({ client_copy: true, criteria: { custodians: [CUSTODIAN], counterparty_numbers: [COUNTERPARTY], ...period } }), 400, /^body\.criteria\.custodians: /m);
    await refused('/productions', production({ criteria: { custodians: [CUSTODIAN], from: period.to, to: period.from } }), 400, /^body\.criteria\.from: /m);
    await refused('/productions', production({ destination: { type: 'Transfer', transfer_config_reference: 'no-such-config' }, criteria: { custodians: [CUSTODIAN], ...period } }), 400, /^body\.destination\.transfer_config_reference: /m);
    await refused('/productions', production({ destination: { type: 'Elsewhere' }, criteria: { custodians: [CUSTODIAN], ...period } }), 400);
    expect((await tenant.call('GET', `/productions/${ulid()}`, officer)).status).toBe(404);
    expect((await tenant.call('GET', '/productions/not-a-ulid', officer)).status).toBe(400);
  }, 120_000);
});
