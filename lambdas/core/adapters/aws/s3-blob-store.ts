import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  GetObjectLegalHoldCommand,
  GetObjectRetentionCommand,
  HeadObjectCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  PutObjectRetentionCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BlobHead, BlobStore, BucketName } from '../../ports/blob-store.ts';

export function isNotFound(error: unknown): boolean {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return failure?.name === 'NoSuchKey' || failure?.name === 'NotFound' || failure?.$metadata?.httpStatusCode === 404;
}

/**
 * Sends a PUT whose body may be a stream. A stream that fails (processing's decryption refusing a tag) must abort the
 * request: the SDK pipes the body into the socket, which does not end on a source error, and the PUT would hang with
 * the object unfinished. S3 never completes a PUT short of its Content-Length, so nothing partial is stored.
 */
export async function sendPut(s3: S3Client, command: PutObjectCommand, stream: Readable | undefined) {
  const abort = new AbortController();
  const failed = (error: Error) => abort.abort(error);
  stream?.once('error', failed);
  try {
    return await s3.send(command, { abortSignal: abort.signal });
  } catch (error) {
    // The body's own error says why better than the SDK's AbortError.
    throw abort.signal.aborted && abort.signal.reason instanceof Error ? abort.signal.reason : error;
  } finally {
    stream?.off('error', failed);
  }
}

/** `attachment; filename="…"` with a plain-ASCII fallback and the RFC 5987 UTF-8 form. */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * BlobStore on S3 (and s3rver locally: the composition root builds that client with `forcePathStyle` and
 * `requestChecksumCalculation: 'WHEN_REQUIRED'`). Logical bucket names map to the configured buckets.
 */
export function createS3BlobStore(s3: S3Client, buckets: Record<BucketName, string>): BlobStore {
  const head = (metadata: {
    ContentLength?: number;
    ContentType?: string;
    ETag?: string;
    Metadata?: Record<string, string>;
    LastModified?: Date;
    VersionId?: string;
    ChecksumSHA256?: string;
  }): BlobHead => ({
    contentLength: metadata.ContentLength ?? 0,
    contentType: metadata.ContentType,
    etag: metadata.ETag,
    metadata: metadata.Metadata ?? {},
    lastModified: metadata.LastModified,
    ...(metadata.VersionId === undefined || metadata.VersionId === 'null' ? {} : { versionId: metadata.VersionId }),
    ...(metadata.ChecksumSHA256 === undefined ? {} : { checksumSha256: metadata.ChecksumSHA256 }),
  });

  return {
    async put(bucket, key, body, options = {}) {
      const isStream = !(body instanceof Uint8Array);
      if (isStream && options.contentLength === undefined) throw new Error('A stream body needs contentLength');
      const command = new PutObjectCommand({
        Bucket: buckets[bucket],
        Key: key,
        Body: body,
        ContentType: options.contentType,
        ContentLength: options.contentLength ?? (body as Uint8Array).byteLength,
        Metadata: options.metadata,
        ...(options.lock?.mode === undefined ? {} : { ObjectLockMode: options.lock.mode, ObjectLockRetainUntilDate: options.lock.retainUntil }),
        ...(options.lock ? { ObjectLockLegalHoldStatus: options.lock.legalHold ? 'ON' : 'OFF' } : {}),
      });
      const result = await sendPut(s3, command, isStream ? body : undefined);
      return { etag: result.ETag, versionId: result.VersionId };
    },
    async get(bucket, key) {
      try {
        const result = await s3.send(new GetObjectCommand({ Bucket: buckets[bucket], Key: key }));
        return { ...head(result), body: result.Body as Readable };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    async head(bucket, key) {
      try {
        // ChecksumMode: S3 answers the SHA-256 it stored at upload, which the fixity checks compare without a read.
        return head(await s3.send(new HeadObjectCommand({ Bucket: buckets[bucket], Key: key, ChecksumMode: 'ENABLED' })));
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    presignGet(bucket, key, options) {
      const command = new GetObjectCommand({
        Bucket: buckets[bucket],
        Key: key,
        ...(options.downloadName ? { ResponseContentDisposition: attachmentDisposition(options.downloadName) } : {}),
      });
      return getSignedUrl(s3, command, { expiresIn: options.expiresInSeconds });
    },
    presignPut(bucket, key, options) {
      const command = new PutObjectCommand({
        Bucket: buckets[bucket],
        Key: key,
        ContentType: options.contentType,
        ContentLength: options.contentLength,
        ...(options.checksumSha256 === undefined ? {} : { ChecksumSHA256: options.checksumSha256 }),
      });
      // Both stay headers in the signature (not hoisted into the query, where S3 would not compare them with the body):
      // a body of another length or hash then fails at S3, not later in processing.
      const bound = ['content-length', ...(options.checksumSha256 === undefined ? [] : ['x-amz-checksum-sha256'])];
      return getSignedUrl(s3, command, {
        expiresIn: options.expiresInSeconds,
        signableHeaders: new Set(bound),
        unhoistableHeaders: new Set(bound),
      });
    },
    async setLegalHold(bucket, key, on) {
      try {
        await s3.send(new PutObjectLegalHoldCommand({ Bucket: buckets[bucket], Key: key, LegalHold: { Status: on ? 'ON' : 'OFF' } }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
    async getLegalHold(bucket, key) {
      try {
        const result = await s3.send(new GetObjectLegalHoldCommand({ Bucket: buckets[bucket], Key: key }));
        return result.LegalHold?.Status === 'ON';
      } catch (error) {
        // An object never given a hold has no legal hold configuration: S3 answers that as a 404, not as OFF.
        if ((error as { name?: string } | null)?.name === 'NoSuchObjectLockConfiguration') return false;
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    async setRetention(bucket, key, retention) {
      try {
        await s3.send(
          new PutObjectRetentionCommand({ Bucket: buckets[bucket], Key: key, Retention: { Mode: retention.mode, RetainUntilDate: retention.retainUntil } }),
        );
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
    async getRetention(bucket, key) {
      try {
        const { Retention: retention } = await s3.send(new GetObjectRetentionCommand({ Bucket: buckets[bucket], Key: key }));
        if (retention?.Mode === undefined || retention.RetainUntilDate === undefined) return null;
        return { mode: retention.Mode, retainUntil: new Date(retention.RetainUntilDate) };
      } catch (error) {
        // An object never given a retention has no Object Lock configuration: a 404 of its own, not "no object".
        if ((error as { name?: string } | null)?.name === 'NoSuchObjectLockConfiguration') return null;
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    async destroy(bucket, key) {
      // Object Lock buckets are versioned: a DELETE without a version id only hides the object behind a delete
      // marker. Each round deletes the current version by its id until none is left (bounded: a payload object is
      // written once, so one or two rounds).
      let destroyed = false;
      for (let round = 0; round < MAX_DESTROY_ROUNDS; round += 1) {
        let versionId: string | undefined;
        try {
          versionId = (await s3.send(new HeadObjectCommand({ Bucket: buckets[bucket], Key: key }))).VersionId;
        } catch (error) {
          if (isNotFound(error)) return destroyed;
          throw error;
        }
        await s3.send(
          new DeleteObjectCommand({
            Bucket: buckets[bucket],
            Key: key,
            ...(versionId === undefined || versionId === 'null' ? {} : { VersionId: versionId }),
          }),
        );
        destroyed = true;
        if (versionId === undefined || versionId === 'null') return true;
      }
      throw new Error(`Object ${key} still has versions after ${MAX_DESTROY_ROUNDS} deletes`);
    },
  };
}

/** Versions of one object a destroy deletes before it gives up (a payload object has one). */
const MAX_DESTROY_ROUNDS = 10;
