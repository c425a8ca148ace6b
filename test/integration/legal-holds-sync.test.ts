import { DeleteObjectCommand, GetObjectLegalHoldCommand, S3Client } from '@aws-sdk/client-s3';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { LegalHold } from '#shared/contract/entities/account-data.ts';
import { HOLD_PAGE } from '../../lambdas/account-data/legal-holds/object-holds.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../scripts/local/dynamodb.ts';
import { PROCESSED_BUCKET } from '../../scripts/local/stack.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { stack } from './support/stack.ts';

/**
 * A large legal hold on the local stack: the request records the hold and walks the first page of recordings itself,
 * the `legal-hold-sync` job (started through the JobRunner port, run by the stack's jobs handler) walks the rest, and
 * the hold shows how far it got. Objects are real objects behind the Object Lock proxy, read and deleted with the AWS
 * SDK as S3 would answer.
 *
 * Fleet: `erin` recorded RECORDINGS calls on `dev-e`, which `frank` holds now. So a hold on erin and a hold on frank
 * both cover every one of them: releasing one leaves them locked, releasing the other unlocks them.
 */
const RECORDINGS = 2 * HOLD_PAGE + 37;
let tenant: RunTenant;
let s3: S3Client;
const erin = 'erin';
const frank = 'frank';
const references: string[] = [];

async function objectHolds(): Promise<Record<string, number>> {
  const tally: Record<string, number> = {};
  for (let start = 0; start < references.length; start += 25) {
    const statuses = await Promise.all(
      references.slice(start, start + 25).map(async (reference) => {
        const answer = await s3.send(new GetObjectLegalHoldCommand({ Bucket: PROCESSED_BUCKET, Key: payloadObjectKey(tenant.client, reference) }));
        return answer.LegalHold?.Status ?? 'none';
      }),
    );
    for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1;
  }
  return tally;
}

async function deleteStatus(reference: string): Promise<number> {
  try {
    await s3.send(new DeleteObjectCommand({ Bucket: PROCESSED_BUCKET, Key: payloadObjectKey(tenant.client, reference) }));
    return 204;
  } catch (error) {
    return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
  }
}

async function holdOf(target: string): Promise<LegalHold> {
  const listed = await tenant.call('GET', '/account/legal_holds?target_type=DeviceUser', tenant.admin);
  const hold = (listed.body.data as unknown[]).map((row) => LegalHold.parse(row)).find((row) => row.target === target);
  if (hold === undefined) throw new Error(`no hold on ${target}`);
  return hold;
}

/** The hold once its walk has settled (the job runs in the stack's process), polled for at most 60 s. */
async function settled(target: string): Promise<LegalHold> {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    const hold = await holdOf(target);
    if (hold.sync_state !== 'Syncing') return hold;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the walk of ${target}'s hold did not settle`);
}

beforeAll(async () => {
  tenant = await createRunTenant('bighold');
  const { client, deps } = tenant;
  s3 = new S3Client({
    endpoint: stack().s3Endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const now = Date.now();
  for (const user of [erin, frank]) {
    await deps.table.put({ ...keys.deviceUser.item(client, user), client, device_user_reference: user, is_active: true, services: [], updated_at: new Date(now).toISOString() });
  }
  await deps.table.put({ ...keys.device.item(client, 'dev-e', frank), client, device_reference: 'dev-e', device_user_reference: frank });
  for (let start = 0; start < RECORDINGS; start += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, RECORDINGS - start) }, async (_, offset) => {
        const reference = ulid();
        const time = new Date(now - (start + offset) * 60_000).toISOString();
        references.push(reference);
        await deps.table.put({
          ...keys.payload.item(client, { payloadReference: reference, payloadTime: time, deviceReference: 'dev-e', deviceUserReference: erin }),
          client,
          payload_reference: reference,
          payload_type: 'Call',
          payload_state: 'Processed',
          device_reference: 'dev-e',
          device_user_reference: erin,
          payload_time: time,
        });
        await deps.blobs.put('processed', payloadObjectKey(client, reference), Buffer.from(`call ${reference}`));
      }),
    );
  }
}, 120_000);
afterAll(async () => {
  s3.destroy();
  await tenant.close();
});

describe('a legal hold on someone with many recordings', () => {
  it('records the hold at once, walks the first page in the request and the rest in the legal-hold-sync job, showing progress', async () => {
    const placed = await tenant.call('PUT', `/account/legal_holds/DeviceUser/${erin}`, tenant.admin, {});
    expect(placed.status).toBe(200);
    const answer = LegalHold.parse(placed.body);
    expect(answer).toMatchObject({ is_active: true, sync_state: 'Syncing' });
    // The request walked one page of objects itself, no more.
    expect(answer.objects_synced).toBe(HOLD_PAGE);

    const done = await settled(erin);
    expect(done).toMatchObject({ sync_state: 'Synced', objects_synced: RECORDINGS });
    expect(done.coverage?.recordings).toEqual({ count: RECORDINGS, capped: false });
    expect(await objectHolds()).toEqual({ ON: RECORDINGS });
    expect(await deleteStatus(references[0]!)).toBe(403);
  });

  it('keeps every object locked while another hold covers it, and unlocks them with the last release', async () => {
    // frank holds the device that recorded them: his hold covers the same recordings.
    expect((await tenant.call('PUT', `/account/legal_holds/DeviceUser/${frank}`, tenant.admin, {})).status).toBe(200);
    expect(await settled(frank)).toMatchObject({ sync_state: 'Synced', objects_synced: RECORDINGS });

    const released = await tenant.applied('DELETE', `/account/legal_holds/DeviceUser/${erin}`, tenant.admin);
    expect(released.status).toBe(200);
    expect(LegalHold.parse(released.body)).toMatchObject({ is_active: false, sync_state: 'Syncing' });
    expect(await settled(erin)).toMatchObject({ sync_state: 'Synced', objects_synced: RECORDINGS });
    expect(await objectHolds()).toEqual({ ON: RECORDINGS });
    expect(await deleteStatus(references[1]!)).toBe(403);

    expect((await tenant.applied('DELETE', `/account/legal_holds/DeviceUser/${frank}`, tenant.admin)).status).toBe(200);
    expect(await settled(frank)).toMatchObject({ is_active: false, sync_state: 'Synced' });
    expect(await objectHolds()).toEqual({ OFF: RECORDINGS });
    expect(await deleteStatus(references[1]!)).toBe(204);
  });

  it('a small hold is in step when the request answers: no job needed', async () => {
    const { client, deps } = tenant;
    await deps.table.put({ ...keys.deviceUser.item(client, 'gina'), client, device_user_reference: 'gina', is_active: true, services: [], updated_at: new Date().toISOString() });
    const reference = ulid();
    const time = new Date().toISOString();
    await deps.table.put({
      ...keys.payload.item(client, { payloadReference: reference, payloadTime: time, deviceReference: 'dev-g', deviceUserReference: 'gina' }),
      client,
      payload_reference: reference,
      payload_type: 'Call',
      payload_state: 'Processed',
      device_reference: 'dev-g',
      device_user_reference: 'gina',
      payload_time: time,
    });
    await deps.blobs.put('processed', payloadObjectKey(client, reference), Buffer.from('one call'));
    const placed = await tenant.call('PUT', '/account/legal_holds/DeviceUser/gina', tenant.admin, {});
    expect(LegalHold.parse(placed.body)).toMatchObject({ sync_state: 'Synced', objects_synced: 1 });
    expect(await deps.blobs.getLegalHold('processed', payloadObjectKey(client, reference))).toBe(true);
    const released = await tenant.applied('DELETE', '/account/legal_holds/DeviceUser/gina', tenant.admin);
    expect(LegalHold.parse(released.body)).toMatchObject({ sync_state: 'Synced', objects_synced: 1 });
    expect(await deps.blobs.getLegalHold('processed', payloadObjectKey(client, reference))).toBe(false);
  });
});
