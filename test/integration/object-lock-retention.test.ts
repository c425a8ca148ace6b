import { DeleteObjectCommand, GetObjectRetentionCommand, S3Client } from '@aws-sdk/client-s3';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPayload } from '#core/store/entities/payload.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { RetentionPolicy } from '#shared/contract/entities/account-data.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import { processPayload } from '../../lambdas/payloads/processing/processing.ts';
import { registerPayload } from '../../lambdas/payloads/processing/registration.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../scripts/local/dynamodb.ts';
import { PROCESSED_BUCKET } from '../../scripts/local/stack.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { stack } from './support/stack.ts';

/**
 * Object Lock retention following the tenant's retention policy, on the local stack: recordings go through the real
 * registration and processing, their processed objects sit behind the Object Lock proxy (GOVERNANCE locally, as the
 * local configuration says), and each object's retention is read and its deletion tried with the AWS SDK as S3 would
 * answer. A longer Call period extends the stored objects' locks (the `object-retention-sync` job the PUT starts); a
 * shorter one leaves them and applies to new recordings only.
 */
const DAY = 86_400_000;
let tenant: RunTenant;
let s3: S3Client;

async function retentionOf(reference: string): Promise<{ mode?: string; until?: number }> {
  const answer = await s3.send(new GetObjectRetentionCommand({ Bucket: PROCESSED_BUCKET, Key: payloadObjectKey(tenant.client, reference) }));
  return { mode: answer.Retention?.Mode, until: answer.Retention?.RetainUntilDate?.getTime() };
}

async function deleteStatus(reference: string, bypass = false): Promise<number> {
  try {
    await s3.send(new DeleteObjectCommand({ Bucket: PROCESSED_BUCKET, Key: payloadObjectKey(tenant.client, reference), BypassGovernanceRetention: bypass }));
    return 204;
  } catch (error) {
    return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
  }
}

/** A call recorded `daysAgo` days ago on `dev-r`, sealed, uploaded, registered and processed; its reference and payload time. */
async function processedCall(daysAgo: number): Promise<{ reference: string; payloadTime: number }> {
  const { client, deps } = tenant;
  const { kek, kekId } = await deviceKeysOf(deps, client);
  const reference = ulid();
  const payloadTime = new Date(Date.now() - daysAgo * DAY).toISOString();
  const sealed = sealPayload({ kek, client, keyId: kekId, content: Buffer.from(`call ${reference}`), meta: { payload_time: payloadTime, second_parties: [{ phone_number: '+447700900002', direction: 'O' }] } });
  await deps.blobs.put('raw', payloadObjectKey(client, reference), sealed.ciphertext);
  await registerPayload(deps, { client, deviceReference: 'dev-r' }, { payload_reference: reference, payload_type: 'Call', ...sealed.registration });
  await processPayload(deps, client, reference);
  const item = readPayload((await deps.table.get(keys.payload.key(client, reference)))!);
  expect(item.payload_state).toBe('Processed');
  return { reference, payloadTime: Date.parse(item.payload_time!) };
}

const callPolicy = (deleteDays: number, destroyDays: number) => ({ PayloadData: [{ payload_type: 'Call', delete_after_days: deleteDays, destroy_after_days: destroyDays }] });

/** The object's retain-until once it reaches `until` (the sync job runs in the stack's process), polled for 30 s at most. */
async function retainedUntil(reference: string, until: number): Promise<number | undefined> {
  let seen: number | undefined;
  for (let attempt = 0; attempt < 120; attempt += 1) {
    seen = (await retentionOf(reference)).until;
    if (seen === until) return seen;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return seen;
}

beforeAll(async () => {
  tenant = await createRunTenant('objlock');
  const { client, deps } = tenant;
  s3 = new S3Client({
    endpoint: stack().s3Endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await deps.table.put({ ...keys.deviceUser.item(client, 'rita'), client, device_user_reference: 'rita', is_active: true, services: [], updated_at: new Date().toISOString() });
  await deps.table.put({ ...keys.device.item(client, 'dev-r', 'rita'), client, device_reference: 'dev-r', device_user_reference: 'rita' });
});
afterAll(async () => {
  s3.destroy();
  await tenant.close();
});

describe('Object Lock retention follows the retention policy', () => {
  let first: { reference: string; payloadTime: number };

  it('locks a processed recording until its payload time plus its type’s period; the object refuses deletion', async () => {
    expect((await tenant.applied('PUT', '/account/retention', tenant.admin, callPolicy(30, 40))).status).toBe(200);
    first = await processedCall(2);
    expect(await retentionOf(first.reference)).toEqual({ mode: 'GOVERNANCE', until: first.payloadTime + 40 * DAY });
    expect(await deleteStatus(first.reference)).toBe(403);
  });

  it('a tenant that never set a policy gets the defaults’ lock (seven years and a quarter for calls)', async () => {
    const other = await createRunTenant('objlock');
    try {
      const { client, deps } = other;
      await deps.table.put({ ...keys.device.item(client, 'dev-r'), client, device_reference: 'dev-r' });
      const saved = tenant;
      tenant = other;
      try {
        const call = await processedCall(1);
        expect(await retentionOf(call.reference)).toEqual({ mode: 'GOVERNANCE', until: call.payloadTime + 2647 * DAY });
      } finally {
        tenant = saved;
      }
    } finally {
      await other.close();
    }
  });

  it('a longer period extends the lock of stored recordings, through the object-retention-sync job', async () => {
    const lengthened = await tenant.applied('PUT', '/account/retention', tenant.admin, callPolicy(60, 70));
    expect(lengthened.status).toBe(200);
    expect(await retainedUntil(first.reference, first.payloadTime + 70 * DAY)).toBe(first.payloadTime + 70 * DAY);
    expect((await retentionOf(first.reference)).mode).toBe('GOVERNANCE');
  });

  it('a shorter period applies to new recordings only, and the policy says so', async () => {
    const shortened = await tenant.applied('PUT', '/account/retention', tenant.admin, callPolicy(5, 10));
    expect(shortened.status).toBe(200);
    const answer = RetentionPolicy.parse(shortened.body);
    expect(answer.object_lock).toMatchObject({ mode: 'GOVERNANCE', shorter_periods_apply_to: 'new_recordings' });
    expect(answer.object_lock?.message).toMatch(/shorter period applies to new recordings only/);
    const newer = await processedCall(1);
    expect(await retentionOf(newer.reference)).toEqual({ mode: 'GOVERNANCE', until: newer.payloadTime + 10 * DAY });
    // The stored one keeps its later date: nothing shortens a lock.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await retentionOf(first.reference)).until).toBe(first.payloadTime + 70 * DAY);
    expect((await tenant.call('GET', '/account/retention', tenant.admin)).body.object_lock).toMatchObject({ mode: 'GOVERNANCE' });
  });

  it('the local Object Lock proxy lets a recording go only once its lock has passed and no legal hold is on', async () => {
    const { client, deps } = tenant;
    const reference = ulid();
    const key = payloadObjectKey(client, reference);
    await deps.blobs.put('processed', key, Buffer.from('short-lived'), { lock: { mode: 'GOVERNANCE', retainUntil: new Date(Date.now() + 1_500) } });
    await deps.blobs.setLegalHold('processed', key, true);
    expect(await deleteStatus(reference)).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    // The retention has passed, but the legal hold still stands.
    expect(await deleteStatus(reference)).toBe(403);
    await deps.blobs.setLegalHold('processed', key, false);
    expect(await deleteStatus(reference)).toBe(204);
    // COMPLIANCE: not even a bypass deletes it early.
    const locked = ulid();
    await deps.blobs.put('processed', payloadObjectKey(client, locked), Buffer.from('kept'), { lock: { mode: 'COMPLIANCE', retainUntil: new Date(Date.now() + 60_000) } });
    expect(await deleteStatus(locked, true)).toBe(403);
    expect(await deps.blobs.getRetention('processed', payloadObjectKey(client, locked))).toMatchObject({ mode: 'COMPLIANCE' });
    await expect(deps.blobs.setRetention('processed', payloadObjectKey(client, locked), { mode: 'COMPLIANCE', retainUntil: new Date(Date.now() + 1_000) })).rejects.toThrow();
    expect(await deps.blobs.getRetention('processed', payloadObjectKey(client, ulid()))).toBeUndefined();
  });
});
