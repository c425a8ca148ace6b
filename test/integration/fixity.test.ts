import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import type { BlobStore } from '#core/ports/blob-store.ts';
import { integrityKeys, readFixityCycle, readIntegrityCheck } from '#core/store/entities/integrity-check.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import type { IntegrityCheck } from '#shared/contract/entities/integrity.ts';
import { fixityAlertKey } from '../../lambdas/integrity/fixity/fixity-alerts.ts';
import { checkTenant, fixityJob, FixityInput } from '../../lambdas/integrity/fixity/fixity-job.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../scripts/local/dynamodb.ts';
import { PROCESSED_BUCKET } from '../../scripts/local/stack.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { stack } from './support/stack.ts';
import { addDevice, jpeg, record, wav, type Recording } from './transfer-job-fixtures.ts';

/**
 * The `fixity` job on the local stand-ins: recordings made through the real pipeline (sealed, uploaded, processed),
 * then their stored objects changed or deleted behind Verity's back with the S3 SDK straight against the local S3,
 * and the job's alerts and IntegrityCheck figures read from the table it wrote.
 */
let tenant: RunTenant;
let other: RunTenant;
let deps: Dependencies;
let s3: S3Client;
const recordings: Recording[] = [];
let othersRecording: Recording;

async function renameDeviceUser(client: string): Promise<void> {
  await deps.table.put({ ...keys.deviceUser.item(client, 'du-fixity'), client, device_user_reference: 'du-fixity', first_name: 'Ada', surname: 'Lovelace' });
  await deps.table.update(keys.device.key(client, 'dev-xfer'), { set: { device_user_reference: 'du-fixity' } });
}

const run = (client: string, input: Record<string, unknown> = {}) => checkTenant(deps, client, FixityInput.parse({ client, ...input }));

async function fixityAlert(client: string, reference: string, kind: string): Promise<Record<string, unknown> | undefined> {
  const page = await deps.table.query({ ...keys.alert.list(client), limit: 200 });
  return page.items.find((item) => item.alert_key === fixityAlertKey(reference, kind as never));
}

/**
 * Removes a stored object's version as someone with the governance bypass could (processing stores the tenant's
 * objects under GOVERNANCE retention, and the stand-in, like S3, refuses a plain overwrite or delete of it).
 */
async function removeBehindVerity(client: string, reference: string): Promise<void> {
  const object = { Bucket: PROCESSED_BUCKET, Key: payloadObjectKey(client, reference) };
  const { VersionId } = await s3.send(new HeadObjectCommand(object));
  await s3.send(new DeleteObjectCommand({ ...object, VersionId, BypassGovernanceRetention: true }));
}

async function storedChecks(client: string): Promise<IntegrityCheck[]> {
  const page = await deps.table.query({ ...integrityKeys.checks(client), descending: true, limit: 50, consistent: true });
  return page.items.map(readIntegrityCheck);
}

beforeAll(async () => {
  s3 = new S3Client({
    endpoint: stack().s3Endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  tenant = await createRunTenant('fixity');
  other = await createRunTenant('fixity-other');
  deps = tenant.deps;
  await addDevice(deps, tenant.client);
  await renameDeviceUser(tenant.client);
  recordings.push(await record(deps, tenant.client, 'Call', wav(40_000)));
  recordings.push(await record(deps, tenant.client, 'Photo', jpeg(30_000)));
  recordings.push(await record(deps, tenant.client, 'Call', wav(20_000)));
  recordings.push(await record(deps, tenant.client, 'SMS', Buffer.from('The contract is signed.')));
  await addDevice(deps, other.client);
  othersRecording = await record(deps, other.client, 'Call', wav(10_000));
}, 120_000);

afterAll(async () => {
  s3?.destroy();
  await tenant?.close();
  await other?.close();
});

describe('the fixity job', () => {
  it('reads every stored recording of an intact tenant in full when the budget allows, and raises nothing', async () => {
    const check = await run(tenant.client, { byte_budget: 10_000_000 });
    expect(check).toMatchObject({
      objects_checked: 4,
      objects_verified: 4,
      bytes_verified: recordings.reduce((total, recording) => total + recording.content.length, 0),
      failures_missing: 0,
      failures_changed: 0,
      failures_unreadable: 0,
      stored_objects: 4,
      cycle_objects_read: 4,
      cycle_progress: 1,
      budget_reached: false,
    });
    expect((await storedChecks(tenant.client))[0]).toEqual(check);
  });

  it('stops at its byte budget and the next run resumes where it stopped, each recording read once a cycle', async () => {
    // A new cycle at once (cycle_days would wait 90): the stored cycle is replaced as a run 90 days on would find it.
    await deps.table.delete(integrityKeys.cycle(tenant.client));
    // The budget (one byte) lets a run read one recording: at least one is read per run, then it stops.
    const first = await run(tenant.client, { byte_budget: 1 });
    expect(first).toMatchObject({ objects_checked: 4, objects_verified: 1, budget_reached: true, cycle_objects_read: 1, cycle_progress: 0.25 });
    const second = await run(tenant.client, { byte_budget: 1 });
    expect(second).toMatchObject({ objects_verified: 1, budget_reached: true, cycle_objects_read: 2, cycle_progress: 0.5 });
    expect(second.cycle_started_at).toBe(first.cycle_started_at);
    expect(second.position).not.toBe(first.position);
    const rest = await run(tenant.client, { byte_budget: 10_000_000 });
    expect(rest).toMatchObject({ objects_verified: 2, budget_reached: false, cycle_objects_read: 4, cycle_progress: 1 });
    // The cycle is complete: until its days have passed, a run checks presence only.
    const waiting = await run(tenant.client, { byte_budget: 10_000_000 });
    expect(waiting).toMatchObject({ objects_checked: 4, objects_verified: 0, cycle_objects_read: 4, cycle_progress: 1 });
    const cycle = readFixityCycle((await deps.table.get(integrityKeys.cycle(tenant.client), { consistent: true }))!);
    expect(cycle.completed_at).toBeDefined();
  });

  it('raises a sec alert naming a recording whose bytes were changed behind Verity\'s back, and counts it', async () => {
    const target = recordings[0]!;
    const changed = Buffer.from(target.content);
    changed[100] = (changed[100]! + 1) % 256;
    await removeBehindVerity(tenant.client, target.reference);
    await s3.send(new PutObjectCommand({ Bucket: PROCESSED_BUCKET, Key: payloadObjectKey(tenant.client, target.reference), Body: changed }));
    await deps.table.delete(integrityKeys.cycle(tenant.client));

    const check = await run(tenant.client, { byte_budget: 10_000_000 });
    expect(check.failures_changed).toBe(1);
    expect(check.failures_missing).toBe(0);
    const alert = await fixityAlert(tenant.client, target.reference, 'changed');
    expect(alert).toMatchObject({ alert_scope: 'sec', alert_type: 'PayloadAlert', alert_severity: 'High' });
    expect(String(alert?.alert_subject)).toContain(target.reference);
    expect(String(alert?.alert_subject)).toContain('Ada Lovelace');
    expect(check.failures).toEqual([{ payload_reference: target.reference, kind: 'changed', alert_reference: alert?.alert_reference }]);

    // The next run finds it again: the same open alert, one more occurrence, not a second alert.
    const again = await run(tenant.client, { byte_budget: 10_000_000 });
    expect(again.failures_changed).toBe(1);
    const page = await deps.table.query({ ...keys.alert.list(tenant.client), limit: 200 });
    expect(page.items.filter((item) => item.alert_key === fixityAlertKey(target.reference, 'changed'))).toHaveLength(1);
  });

  it('tells a deleted object as missing', async () => {
    const target = recordings[1]!;
    await removeBehindVerity(tenant.client, target.reference);
    const check = await run(tenant.client, { byte_budget: 10_000_000 });
    expect(check.failures_missing).toBe(1);
    expect(check.failures.map((failure) => [failure.payload_reference, failure.kind])).toContainEqual([target.reference, 'missing']);
    const alert = await fixityAlert(tenant.client, target.reference, 'missing');
    expect(alert).toMatchObject({ alert_scope: 'sec' });
    expect(String(alert?.alert_message)).toContain(target.reference);
  });

  it('reads only its own tenant\'s objects, and the other tenant\'s figures are its own', async () => {
    const touched: string[] = [];
    const watching = (blobs: BlobStore): BlobStore => ({
      ...blobs,
      head: async (bucket, key) => {
        touched.push(key);
        return blobs.head(bucket, key);
      },
      get: async (bucket, key) => {
        touched.push(key);
        return blobs.get(bucket, key);
      },
    });
    const watched = { ...deps, blobs: watching(deps.blobs) };
    const result = await fixityJob(watched, { client: other.client, byte_budget: 10_000_000 });
    expect(result).toMatchObject({ tenants: 1, objects_checked: 1, objects_verified: 1, failures: 0 });
    expect(touched.length).toBeGreaterThan(0);
    expect(touched.every((key) => key.startsWith(`${other.client}/`))).toBe(true);
    expect(touched).toContain(payloadObjectKey(other.client, othersRecording.reference));
    const checks = await storedChecks(other.client);
    expect(checks[0]).toMatchObject({ client: other.client, objects_checked: 1, failures_changed: 0, failures_missing: 0 });
  });
});
