import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { readDisposal } from '#core/store/entities/disposal.ts';
import { keys, payloadObjectKey, type ActivityTrail } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { dueMarkerItems } from '../../lambdas/account-data/retention/due-index.ts';
import { DESTROYED_PAYLOAD_KEEPS } from '../../lambdas/account-data/retention/record-changes/payload.ts';
import { retentionJob } from '../../lambdas/account-data/retention/retention-job.ts';
import { writeActivityRecord } from '../../lambdas/audit/trail/activity-log.ts';
import { writeCheckpoint } from '../../lambdas/audit/trail/checkpoint.ts';
import { linkPending } from '../../lambdas/audit/trail/sequencer.ts';
import { LOCAL_AUDIT_SIGNING_KEY_ID } from '../../lambdas/audit/trail/signing-key.ts';
import { verifyChain } from '../../lambdas/audit/trail/verify-chain.ts';
import { waveformObjectKey } from '../../lambdas/payloads/processing/waveform-peaks.ts';
import { main } from '../../scripts/audit-verify.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { stack } from './support/stack.ts';

/**
 * What retention leaves behind as evidence, on the local stack: activity records it destroys leave stubs the verifier
 * accepts under their disposal records (and a record removed by hand is still reported), and a destroyed recording
 * keeps only the metadata the policy names, while its lists, its page and its restore still answer for it.
 */
let tenant: RunTenant;
const DAY = 86_400_000;
const OLD_USER_RECORDS = 12;
const OLD_DEVICE_RECORDS = 8;
const POLICY = {
  PayloadData: [{ payload_type: 'Call', delete_after_days: 30, destroy_after_days: 100 }],
  UserActivityData: { delete_after_days: 30, destroy_after_days: 100 },
  DeviceActivityData: { delete_after_days: 30, destroy_after_days: 100 },
};
const signing = { signingKeyId: LOCAL_AUDIT_SIGNING_KEY_ID };
const PAYLOAD = '01JRETAINEVIDENCE000000000P';
const NUMBER = '+447700900123';

const old = (index: number) => new Date(Date.now() - 200 * DAY - index * 60_000).toISOString();

async function verifyScript(client: string) {
  const lines: string[] = [];
  const io = { env: { DATA_DIR: stack().dataDir }, out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
  const code = await main([client, '--endpoint', stack().dynamoEndpoint], io);
  return { code, lines };
}

/** Links whatever waits (the tenant's own API calls too) and signs both heads. */
async function linkAndSign(deps: Dependencies, client: string) {
  for (const trail of ['user', 'device'] as const) {
    await linkPending(deps, trail, client);
    await writeCheckpoint(deps, trail, client, LOCAL_AUDIT_SIGNING_KEY_ID);
  }
}

/** The records of a trail as stored, old ones only (this test's). */
async function oldRecords(deps: Dependencies, trail: ActivityTrail, client: string): Promise<TableItem[]> {
  const found: TableItem[] = [];
  for await (const page of eachPage(deps.table, { ...keys.activityChain.records(trail, client), consistent: true }, 100)) {
    found.push(...page.filter((item) => Date.parse(item.sk.slice(0, 24)) < Date.now() - 100 * DAY));
  }
  return found;
}

beforeAll(async () => {
  tenant = await createRunTenant('evidence');
  const { client, deps } = tenant;
  for (let index = 0; index < OLD_USER_RECORDS; index += 1) {
    await writeActivityRecord(deps, { trail: 'user', client, entry: { user_id: 'officer', activity_time: old(index), action: 'payloads:List', is_allowed: true, roles: ['admin'], is_client_app: false, status_code: 200 } });
  }
  for (let index = 0; index < OLD_DEVICE_RECORDS; index += 1) {
    await writeActivityRecord(deps, { trail: 'device', client, entry: { log_id: `old-${index}`, device_reference: 'dev-1', device_user_reference: 'du-1', activity_time: old(index), action: 'device:Poll', is_allowed: true } });
  }
  // A recording 200 days old, with everything processing leaves on it, and its processed object.
  const time = old(0);
  const payload: TableItem = {
    ...keys.payload.item(client, { payloadReference: PAYLOAD, payloadTime: time, deviceReference: 'dev-1', deviceUserReference: 'du-1' }),
    client,
    payload_reference: PAYLOAD,
    payload_type: 'Call',
    payload_state: 'Processed',
    device_reference: 'dev-1',
    device_user_reference: 'du-1',
    group: 'traders',
    device_ip: '203.0.113.7',
    key_id: 'kek-1',
    encrypted_dek: 'c2VhbGVk',
    content_iv: 'aXY=',
    sealed_meta: 'c2VhbGVkIG1ldGE=',
    s3_path: `s3://processed/${payloadObjectKey(client, PAYLOAD)}`,
    payload_time: time,
    payload_duration: 42,
    payload_full_duration: 45,
    thread_id: 'thread-7',
    second_party_numbers: NUMBER,
    all_numbers: `${NUMBER},+447700900999`,
    checksum: 'a'.repeat(64),
    is_legacy: false,
    is_late: false,
    uploaded_at: time,
    processed_at: time,
    waveform_peaks: true,
    updated_at: time,
    updated_by: 'processing',
  };
  await deps.table.put(payload);
  for (const marker of dueMarkerItems(client, payload)) await deps.table.put(marker);
  await deps.blobs.put('processed', payloadObjectKey(client, PAYLOAD), Buffer.from('a recording'), {});
  await deps.blobs.put('processed', waveformObjectKey(client, PAYLOAD), Buffer.from('{"peaks":[]}'), { contentType: 'application/json' });
  expect((await tenant.applied('PUT', '/account/retention', tenant.admin, POLICY)).status).toBe(200);
  await linkAndSign(deps, client);
}, 120_000);

afterAll(async () => {
  await tenant?.close();
});

describe('retention evidence', () => {
  it('deletes activity records under the chain: the verifier accepts each deletion by its disposal record', async () => {
    const { client, deps } = tenant;
    const result = await retentionJob(deps, { client });
    expect(result.deleted).toBe(OLD_USER_RECORDS + OLD_DEVICE_RECORDS + 1);
    const user = await verifyChain(deps, client, 'user', signing);
    expect(user).toMatchObject({ whole: true, deleted: OLD_USER_RECORDS, destroyed: 0 });
    expect(await verifyChain(deps, client, 'device', signing)).toMatchObject({ whole: true, deleted: OLD_DEVICE_RECORDS, destroyed: 0 });
    // The marks name the disposal record; content is unchanged.
    const [record] = await oldRecords(deps, 'user', client);
    expect(record).toMatchObject({ retention_state: 'Deleted', action: 'payloads:List', chain_state: 'linked' });
    expect(typeof record?.disposal_id).toBe('string');
  }, 60_000);

  it('destroys them a run later, leaving stubs: verify shows no missing link and counts the destroyed ones', async () => {
    const { client, deps } = tenant;
    const result = await retentionJob(deps, { client, now: new Date(Date.now() + DAY).toISOString() });
    expect(result.destroyed).toBe(OLD_USER_RECORDS + OLD_DEVICE_RECORDS + 1);
    await linkAndSign(deps, client);

    const script = await verifyScript(client);
    expect(script.code).toBe(0);
    expect(script.lines[0]).toMatch(new RegExp(`^User activity of ${client} is whole: \\d+ records linked \\(${OLD_USER_RECORDS} destroyed and 0 deleted by retention, each under its disposal record\\), `));
    expect(script.lines[1]).toMatch(new RegExp(`^Device activity of ${client} is whole: \\d+ records linked \\(${OLD_DEVICE_RECORDS} destroyed and 0 deleted by retention`));

    // A stub holds what the chain needs and nothing of the call; it has left the activity lists.
    const stubs = await oldRecords(deps, 'user', client);
    expect(stubs.length).toBe(OLD_USER_RECORDS);
    const stub = stubs[0] as TableItem;
    expect(Object.keys(stub).sort()).toEqual(
      ['activity_time', 'chain_state', 'client', 'destroyed_at', 'disposal_id', 'entity', 'entry_hash', 'log_id', 'pk', 'retention_state', 'sequence', 'sk'].sort(),
    );
    const link = await deps.table.get(keys.activityChain.link('user', client, stub.sequence as number), { consistent: true });
    expect(stub.entry_hash).toBe(link?.entry_hash);
    const disposal = readDisposal((await deps.table.get(keys.disposal.item(client, String(stub.destroyed_at), String(stub.disposal_id)))) as TableItem);
    expect(disposal).toMatchObject({ action: 'Destroyed', record_type: 'UserActivityData', reference: stub.log_id, checksum: link?.entry_hash });
    // The activity list (by time) and the person's list (a portal user's hold coverage) hold no stub.
    const byTime = await deps.table.query({ ...keys.userActivity.list(client), sort: { between: ['0', new Date(Date.now() - 100 * DAY).toISOString()] }, limit: 100 });
    expect(byTime.items).toEqual([]);
    expect((await deps.table.query({ ...keys.userActivity.listByUser(client, 'officer'), limit: 100 })).items).toEqual([]);
  }, 60_000);

  it('still reports a record removed by hand, and a stub whose disposal record is gone', async () => {
    const { client, deps } = tenant;
    const [stub] = await oldRecords(deps, 'user', client);
    const key = { pk: (stub as TableItem).pk, sk: (stub as TableItem).sk };
    await deps.table.delete(key);
    let script = await verifyScript(client);
    expect(script.code).toBe(1);
    expect(script.lines[0]).toMatch(new RegExp(`is broken at record #${String(stub?.sequence)} \\(.+\\): missing: .* is missing: its link remains$`));
    await deps.table.put(stub as TableItem);
    expect((await verifyScript(client)).code).toBe(0);

    const disposalKey = keys.disposal.item(client, String(stub?.destroyed_at), String(stub?.disposal_id));
    const disposal = (await deps.table.get(disposalKey)) as TableItem;
    await deps.table.delete(disposalKey);
    script = await verifyScript(client);
    expect(script.lines[0]).toMatch(/: missing: record #\d+ \(.+\) was destroyed without a disposal record$/);
    await deps.table.put(disposal);

    // A live record turned into a stub by hand (its content dropped, a disposal id made up) is no disposal either.
    const live = (await deps.table.query({ ...keys.activityChain.records('user', client), consistent: true, limit: 100 })).items.find(
      (item) => item.retention_state === undefined && item.chain_state === 'linked',
    ) as TableItem;
    await deps.table.put({ pk: live.pk, sk: live.sk, entity: live.entity, client, log_id: live.log_id, activity_time: live.activity_time, chain_state: 'linked', sequence: live.sequence, entry_hash: 'f'.repeat(64), retention_state: 'Destroyed', destroyed_at: new Date().toISOString(), disposal_id: '01JFORGEDDISPOSAL000000000' });
    script = await verifyScript(client);
    expect(script.code).toBe(1);
    expect(script.lines[0]).toMatch(/: edited: record #\d+ \(.+\) is a stub of other content than its link names$/);
    await deps.table.put(live);
    expect((await verifyScript(client)).code).toBe(0);
  }, 60_000);

  it('keeps a destroyed recording as the policy says: its reference, times, checksum and devices, none of its content', async () => {
    const { client, deps } = tenant;
    const stored = (await deps.table.get(keys.payload.key(client, PAYLOAD), { consistent: true })) as TableItem;
    expect(stored).toMatchObject({ payload_state: 'Destroyed', device_reference: 'dev-1', device_user_reference: 'du-1', checksum: 'a'.repeat(64), payload_type: 'Call', group: 'traders' });
    const kept = new Set<string>([...DESTROYED_PAYLOAD_KEEPS, 'payload_state', 'destroyed_at', 'disposal_id', 'updated_at', 'updated_by']);
    expect(Object.keys(stored).filter((attribute) => !kept.has(attribute))).toEqual([]);
    for (const gone of ['sealed_meta', 'encrypted_dek', 'key_id', 'content_iv', 'all_numbers', 'second_party_numbers', 'thread_id', 'device_ip', 's3_path', 'payload_full_duration']) {
      expect(stored[gone], gone).toBeUndefined();
    }
    const disposal = readDisposal((await deps.table.get(keys.disposal.item(client, String(stored.destroyed_at), String(stored.disposal_id)))) as TableItem);
    expect(disposal).toMatchObject({ action: 'Destroyed', record_type: 'PayloadData', reference: PAYLOAD, checksum: 'a'.repeat(64) });
    // Its objects are gone, the waveform drawn from its audio too.
    expect(await deps.blobs.getLegalHold('processed', payloadObjectKey(client, PAYLOAD))).toBeUndefined();
    expect(await deps.blobs.getLegalHold('processed', waveformObjectKey(client, PAYLOAD))).toBeUndefined();

    // The recording page shows the remnant, without meta; restore refuses; the lists and their totals still hold it,
    // but a search by one of its numbers no longer finds it.
    const page = await tenant.call('GET', `/payloads/${PAYLOAD}`, tenant.admin);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ payload_reference: PAYLOAD, payload_state: 'Destroyed', payload_time: stored.payload_time });
    expect(page.body.meta).toBeUndefined();
    const restore = await tenant.call('POST', `/payloads/${PAYLOAD}/restore`, tenant.admin);
    expect(restore.status).toBe(409);
    const list = await tenant.call('GET', '/payloads?limit=50', tenant.admin);
    expect((list.body.data as Array<Record<string, unknown>>).map((row) => [row.payload_reference, row.payload_state])).toEqual([[PAYLOAD, 'Destroyed']]);
    expect((await tenant.call('GET', '/payloads?result_type=total', tenant.admin)).body.count).toBe(1);
    const byNumber = await tenant.call('GET', `/payloads?phone_number=${encodeURIComponent(NUMBER)}`, tenant.admin);
    expect(byNumber.status).toBe(200);
    expect(byNumber.body.data).toEqual([]);
  }, 60_000);
});
