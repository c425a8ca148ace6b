import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  GetObjectLegalHoldCommand,
  HeadObjectCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../scripts/local/dynamodb.ts';
import { describeObjectLockContract } from '../../scripts/local/s3-object-lock.contract.ts';
import { startS3 } from '../../scripts/local/s3.ts';
import { PROCESSED_BUCKET, TRANSFER_DESTINATION_BUCKET } from '../../scripts/local/stack.ts';
import { stack } from './support/stack.ts';

/** An S3 client for a local endpoint, configured as the composition root configures it for s3rver. */
function localClient(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

const clients: S3Client[] = [];
const client = () => {
  const made = localClient(stack().s3Endpoint);
  clients.push(made);
  return made;
};
afterAll(() => clients.forEach((made) => made.destroy()));

// The same calls s3-object-lock.real-s3.test.ts makes against an Object Lock bucket on real S3.
let shared: S3Client | undefined;
describeObjectLockContract('Object Lock on the local stack (payload bucket)', () => ({ s3: (shared ??= client()), bucket: PROCESSED_BUCKET }));

type Failure = { name?: string; $metadata?: { httpStatusCode?: number } };
async function failure(call: Promise<unknown>): Promise<{ code?: string; status?: number } | 'ok'> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    return { code: (error as Failure).name, status: (error as Failure).$metadata?.httpStatusCode };
  }
}
const keyOf = (name: string) => `object-lock-test/${randomBytes(6).toString('hex')}/${name}`;

describe('Object Lock stand-in: where one kept version differs from S3', () => {
  it('refuses a DELETE without a version id and an overwrite while locked (S3 would keep the version; s3rver cannot)', async () => {
    const s3 = client();
    const object = { Bucket: PROCESSED_BUCKET, Key: keyOf('held.txt') };
    const { VersionId } = await s3.send(new PutObjectCommand({ ...object, Body: 'kept', ObjectLockLegalHoldStatus: 'ON' }));
    expect(await failure(s3.send(new DeleteObjectCommand(object)))).toEqual({ code: 'AccessDenied', status: 403 });
    expect(await failure(s3.send(new PutObjectCommand({ ...object, Body: 'replaced' })))).toEqual({ code: 'AccessDenied', status: 403 });
    expect(await (await s3.send(new GetObjectCommand(object))).Body?.transformToString()).toBe('kept');
    expect(await failure(s3.send(new GetObjectLegalHoldCommand({ ...object, VersionId: 'another-version' })))).toEqual({ code: 'NoSuchVersion', status: 404 });

    await s3.send(new PutObjectLegalHoldCommand({ ...object, VersionId, LegalHold: { Status: 'OFF' } }));
    expect(await failure(s3.send(new DeleteObjectCommand(object)))).toBe('ok');
  });

  it('answers each DeleteObjects entry: a locked one AccessDenied, the others deleted', async () => {
    const s3 = client();
    const [held, free] = [keyOf('held.txt'), keyOf('free.txt')];
    await s3.send(new PutObjectCommand({ Bucket: PROCESSED_BUCKET, Key: held, Body: 'held', ObjectLockLegalHoldStatus: 'ON' }));
    await s3.send(new PutObjectCommand({ Bucket: PROCESSED_BUCKET, Key: free, Body: 'free' }));
    const result = await s3.send(new DeleteObjectsCommand({ Bucket: PROCESSED_BUCKET, Delete: { Objects: [{ Key: held }, { Key: free }] } }));
    expect(result.Deleted?.map((entry) => entry.Key)).toEqual([free]);
    expect(result.Errors?.map((entry) => [entry.Key, entry.Code])).toEqual([[held, 'AccessDenied']]);
    expect(await failure(s3.send(new HeadObjectCommand({ Bucket: PROCESSED_BUCKET, Key: held })))).toBe('ok');
    expect(await failure(s3.send(new HeadObjectCommand({ Bucket: PROCESSED_BUCKET, Key: free })))).toMatchObject({ status: 404 });
    await s3.send(new PutObjectLegalHoldCommand({ Bucket: PROCESSED_BUCKET, Key: held, LegalHold: { Status: 'OFF' } }));
    await s3.send(new DeleteObjectCommand({ Bucket: PROCESSED_BUCKET, Key: held }));
  });

  it('answers as S3 does for a bucket made without Object Lock (the transfer destination)', async () => {
    const s3 = client();
    const object = { Bucket: TRANSFER_DESTINATION_BUCKET, Key: keyOf('delivered.txt') };
    expect(await failure(s3.send(new PutObjectCommand({ ...object, Body: 'x', ObjectLockLegalHoldStatus: 'ON' })))).toEqual({ code: 'InvalidRequest', status: 400 });
    await s3.send(new PutObjectCommand({ ...object, Body: 'x' }));
    expect(await failure(s3.send(new PutObjectLegalHoldCommand({ ...object, LegalHold: { Status: 'ON' } })))).toEqual({ code: 'InvalidRequest', status: 400 });
    expect(await failure(s3.send(new DeleteObjectCommand(object)))).toBe('ok');
  });

  it('forwards object bodies byte for byte, both ways', async () => {
    const s3 = client();
    const content = randomBytes(3 * 1024 * 1024 + 17);
    const object = { Bucket: PROCESSED_BUCKET, Key: keyOf('large.bin') };
    await s3.send(new PutObjectCommand({ ...object, Body: content, ContentLength: content.length }));
    const read = Buffer.from(await ((await s3.send(new GetObjectCommand(object))).Body?.transformToByteArray() ?? Promise.resolve(new Uint8Array())));
    expect(createHash('sha256').update(read).digest('hex')).toBe(createHash('sha256').update(content).digest('hex'));
    await s3.send(new DeleteObjectCommand(object));
  });

  it('takes pre-signed URLs as S3 does: a PUT is an object write (refused over a locked one), a GET keeps its response-* overrides', async () => {
    const s3 = client();
    const object = { Bucket: PROCESSED_BUCKET, Key: keyOf('signed.txt') };
    const put = await fetch(await getSignedUrl(s3, new PutObjectCommand(object), { expiresIn: 60 }), { method: 'PUT', body: 'signed upload' });
    expect(put.status).toBe(200);
    expect(put.headers.get('x-amz-version-id')).toBeTruthy();
    const download = await getSignedUrl(s3, new GetObjectCommand({ ...object, ResponseContentDisposition: 'attachment; filename="call one.txt"' }), { expiresIn: 60 });
    const got = await fetch(download);
    expect(got.headers.get('content-disposition')).toBe('attachment; filename="call one.txt"');
    expect(await got.text()).toBe('signed upload');

    await s3.send(new PutObjectLegalHoldCommand({ ...object, LegalHold: { Status: 'ON' } }));
    const over = await fetch(await getSignedUrl(s3, new PutObjectCommand(object), { expiresIn: 60 }), { method: 'PUT', body: 'replaced' });
    expect(over.status).toBe(403);
    expect(await over.text()).toContain('<Code>AccessDenied</Code>');
    await s3.send(new PutObjectLegalHoldCommand({ ...object, LegalHold: { Status: 'OFF' } }));
    await s3.send(new DeleteObjectCommand(object));
  });

  it('refuses keys s3rver would store as another key (a/../b, a//b), in any bucket, rather than let them alias a locked one', async () => {
    const s3 = client();
    const folder = keyOf('dots');
    await s3.send(new PutObjectCommand({ Bucket: PROCESSED_BUCKET, Key: `${folder}/b.txt`, Body: 'b', ObjectLockLegalHoldStatus: 'ON' }));
    for (const [bucket, key] of [
      [PROCESSED_BUCKET, `${folder}/a/../b.txt`],
      [PROCESSED_BUCKET, `${folder}//b.txt`],
      [TRANSFER_DESTINATION_BUCKET, `../${PROCESSED_BUCKET}/${folder}/b.txt`],
    ] as const) {
      expect(await failure(s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'alias' })))).toEqual({ code: 'InvalidArgument', status: 400 });
      expect(await failure(s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })))).toEqual({ code: 'InvalidArgument', status: 400 });
    }
    expect(await (await s3.send(new GetObjectCommand({ Bucket: PROCESSED_BUCKET, Key: `${folder}/b.txt` }))).Body?.transformToString()).toBe('b');
    await s3.send(new PutObjectLegalHoldCommand({ Bucket: PROCESSED_BUCKET, Key: `${folder}/b.txt`, LegalHold: { Status: 'OFF' } }));
    await s3.send(new DeleteObjectCommand({ Bucket: PROCESSED_BUCKET, Key: `${folder}/b.txt` }));
  });

  it('keeps lock state on disk: a restarted stand-in still refuses the delete', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'verity-object-lock-'));
    const options = { directory: join(directory, 's3'), buckets: ['locked'], objectLock: { buckets: ['locked'], stateDirectory: join(directory, 'lock') } };
    try {
      const object = { Bucket: 'locked', Key: 'evidence.txt' };
      const first = await startS3(options);
      const before = localClient(first.endpoint);
      const { VersionId } = await before.send(new PutObjectCommand({ ...object, Body: 'evidence', ObjectLockLegalHoldStatus: 'ON' }));
      before.destroy();
      await first.stop();

      const second = await startS3(options);
      const after = localClient(second.endpoint);
      try {
        expect((await after.send(new GetObjectLegalHoldCommand({ ...object, VersionId }))).LegalHold?.Status).toBe('ON');
        expect(await failure(after.send(new DeleteObjectCommand({ ...object, VersionId })))).toEqual({ code: 'AccessDenied', status: 403 });
      } finally {
        after.destroy();
        await second.stop();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
