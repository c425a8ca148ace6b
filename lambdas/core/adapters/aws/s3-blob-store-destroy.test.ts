import { DeleteObjectCommand, HeadObjectCommand, NotFound, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { createS3BlobStore } from './s3-blob-store.ts';

/**
 * `destroy` in a versioned (Object Lock) bucket, where a DELETE without a version id would only hide the object: each
 * current version is deleted by its id until none is left, and no call asks to bypass a lock.
 */
describe('S3 blob store destroy', () => {
  const buckets = { raw: 'verity-raw', processed: 'verity-processed' };

  it('deletes every version by id, then reports the object destroyed', async () => {
    const s3 = mockClient(S3Client);
    s3.on(HeadObjectCommand)
      .resolvesOnce({ VersionId: 'v2' })
      .resolvesOnce({ VersionId: 'v1' })
      .rejects(new NotFound({ message: 'gone', $metadata: { httpStatusCode: 404 } }));
    s3.on(DeleteObjectCommand).resolves({});
    expect(await createS3BlobStore(new S3Client({ region: 'eu-west-2' }), buckets).destroy('processed', 'acme/payloads/p1')).toBe(true);
    const deletes = s3.commandCalls(DeleteObjectCommand).map((call) => call.args[0].input);
    expect(deletes).toEqual([
      { Bucket: 'verity-processed', Key: 'acme/payloads/p1', VersionId: 'v2' },
      { Bucket: 'verity-processed', Key: 'acme/payloads/p1', VersionId: 'v1' },
    ]);
    s3.restore();
  });

  it('answers false for an object that does not exist, and passes a refusal on', async () => {
    const s3 = mockClient(S3Client);
    s3.on(HeadObjectCommand).rejects(new NotFound({ message: 'gone', $metadata: { httpStatusCode: 404 } }));
    const blobs = createS3BlobStore(new S3Client({ region: 'eu-west-2' }), buckets);
    expect(await blobs.destroy('raw', 'acme/payloads/none')).toBe(false);
    s3.on(HeadObjectCommand).resolves({ VersionId: 'v1' });
    s3.on(DeleteObjectCommand).rejects(Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }));
    await expect(blobs.destroy('raw', 'acme/payloads/held')).rejects.toThrow('Access Denied');
    s3.restore();
  });
});
