import { createHash, type Hash } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { chunksOf, BodyError } from './body-chunks.ts';
import { checkDeliveryPath, underFolder } from './delivery-paths.ts';
import { DeliveryError, type DeliveredFile, type DeliveryBody, type Destination, type PutOptions } from './types.ts';

/**
 * Bytes per multipart part: 16 MiB, so a file up to about 156 GiB fits S3's 10,000 parts while one part is read
 * and one is sent (about 32 MiB in memory, whatever the file's size).
 */
export const PART_BYTES = 16 * 1024 * 1024;
const MAX_PARTS = 10_000;

export interface S3Target {
  /** `s3://bucket/optional/prefix/` as the configuration holds it. */
  destination: string;
  /** Ask S3 to check each part's SHA-256 on arrival (real S3; s3rver does not check checksums). */
  partChecksums: boolean;
}

type S3Error = Error & { name?: string; $fault?: string; $retryable?: unknown; $metadata?: { httpStatusCode?: number } };

/** `s3://bucket/prefix/` → the bucket and the prefix without slashes at either end. */
export function parseS3Destination(destination: string): { bucket: string; prefix: string } {
  const [bucket = '', ...rest] = destination.replace(/^s3:\/\//, '').split('/');
  return { bucket, prefix: rest.join('/').replace(/^\/+|\/+$/g, '') };
}

/**
 * Delivers into a customer's bucket through `s3` (built with the customer's role's credentials). A file is sent as
 * one conditional PutObject when it fits a part, else as a multipart upload completed conditionally: S3 shows an
 * object only once it is complete, and `If-None-Match: *` makes S3 refuse to replace one that exists (412). A HEAD
 * first refuses early, before any byte is sent, and is the only guard where the endpoint ignores the condition
 * (s3rver). A failed multipart upload is aborted so no parts are left to pay for.
 */
export function createS3Destination(s3: S3Client, target: S3Target): Destination {
  const { bucket, prefix } = parseS3Destination(target.destination);
  const where = `s3://${bucket}`;
  const keyOf = (path: string) => underFolder(prefix, path);

  const head = async (key: string): Promise<{ bytes: number } | undefined> => {
    try {
      const answer = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { bytes: answer.ContentLength ?? 0 };
    } catch (error) {
      if ((error as S3Error).name === 'NotFound' || (error as S3Error).$metadata?.httpStatusCode === 404) return undefined;
      throw error;
    }
  };

  const checksumOf = (bytes: Uint8Array) =>
    target.partChecksums ? { ChecksumSHA256: createHash('sha256').update(bytes).digest('base64') } : {};

  return {
    async put(path, body, options = {}): Promise<DeliveredFile> {
      checkDeliveryPath(path);
      const key = keyOf(path);
      try {
        if ((await head(key)) !== undefined) throw alreadyThere(where, key);
      } catch (error) {
        await chunksOf(body).cancel(error);
        throw asDeliveryError(error, where, key);
      }
      const hash = createHash('sha256');
      const parts = partsOf(body, (chunk) => hash.update(chunk));
      let uploadId: string | undefined;
      try {
        let bytes = 0;
        const first = await parts.next();
        const second = first === undefined ? undefined : await parts.next();
        if (second === undefined) {
          const content = first ?? new Uint8Array();
          bytes = content.byteLength;
          await committing(options, bytes, hash);
          await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: content, IfNoneMatch: '*', ...checksumOf(content) }));
        } else {
          const created = await s3.send(
            new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ...(target.partChecksums ? { ChecksumAlgorithm: 'SHA256' as const } : {}) }),
          );
          uploadId = created.UploadId;
          const completed: Array<{ PartNumber: number; ETag?: string; ChecksumSHA256?: string }> = [];
          // One part is sent while the next is read: the upload and the packaging overlap, two parts in memory at most.
          let sending: Promise<void> | undefined;
          for (let part: Uint8Array | undefined = first; part !== undefined; ) {
            const PartNumber = completed.length + 1;
            if (PartNumber > MAX_PARTS) throw new DeliveryError(`${key}: larger than S3's ${MAX_PARTS} parts of ${PART_BYTES} bytes`, { retryable: false });
            const entry: (typeof completed)[number] = { PartNumber };
            completed.push(entry);
            const content = part;
            bytes += content.byteLength;
            await sending;
            sending = s3
              .send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber, Body: content, ...checksumOf(content) }))
              .then((answer) => {
                entry.ETag = answer.ETag;
                if (answer.ChecksumSHA256) entry.ChecksumSHA256 = answer.ChecksumSHA256;
              });
            // Keep a rejected upload from being unhandled while the next part is read; it is awaited just below.
            sending.catch(() => undefined);
            part = part === first ? second : await parts.next();
          }
          await sending;
          await committing(options, bytes, hash);
          await s3.send(
            new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, IfNoneMatch: '*', MultipartUpload: { Parts: completed } }),
          );
          uploadId = undefined;
        }
        const arrived = await head(key);
        if (arrived?.bytes !== bytes) {
          throw new DeliveryError(`${where}/${key}: ${String(arrived?.bytes)} bytes arrived of ${bytes} sent`, { retryable: false });
        }
        return { path, bytes, sha256: hash.digest('hex') };
      } catch (error) {
        if (uploadId !== undefined) {
          await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
        }
        if (error instanceof BodyError) throw error.original;
        await parts.cancel(error);
        throw asDeliveryError(error, where, key);
      }
    },

    async exists(path) {
      checkDeliveryPath(path);
      try {
        return await head(keyOf(path));
      } catch (error) {
        throw asDeliveryError(error, where, keyOf(path));
      }
    },

    async close() {
      s3.destroy();
    },
  };
}

/**
 * The caller's last word before the object appears (PutOptions.beforeCommit), with the digest so far from a copy of the
 * running hash; its refusal is its own error, passed through as the body's is.
 */
async function committing(options: PutOptions, bytes: number, hash: Hash): Promise<void> {
  await options.beforeCommit?.({ bytes, sha256: hash.copy().digest('hex') }).catch((error: unknown) => Promise.reject(new BodyError(error)));
}

/** Cuts the body into parts of PART_BYTES (the last one shorter), copying each chunk once into the part being filled. */
function partsOf(body: DeliveryBody, seen: (chunk: Uint8Array) => void) {
  const source = chunksOf(body);
  let carry: Uint8Array | undefined;
  return {
    async next(): Promise<Uint8Array | undefined> {
      const part = new Uint8Array(PART_BYTES);
      let filled = 0;
      while (filled < PART_BYTES) {
        const chunk = carry ?? (await source.next());
        carry = undefined;
        if (chunk === undefined) break;
        const taken = Math.min(chunk.byteLength, PART_BYTES - filled);
        part.set(chunk.subarray(0, taken), filled);
        seen(chunk.subarray(0, taken));
        filled += taken;
        if (taken < chunk.byteLength) carry = chunk.subarray(taken);
      }
      return filled === 0 ? undefined : part.subarray(0, filled);
    },
    cancel: (reason: unknown) => source.cancel(reason),
  };
}

function alreadyThere(where: string, key: string): DeliveryError {
  return new DeliveryError(`${where}/${key} already exists; a delivered file is never replaced`, { retryable: false });
}

/** S3's own verdict where it gives one (a fault on its side, throttling); refusals (access, no bucket) last. */
function asDeliveryError(error: unknown, where: string, key: string): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const failure = error as S3Error;
  if (failure.name === 'PreconditionFailed' || failure.$metadata?.httpStatusCode === 412) return alreadyThere(where, key);
  const status = failure.$metadata?.httpStatusCode;
  const retryable = status === undefined || status >= 500 || status === 429 || failure.$fault === 'server' || failure.$retryable !== undefined;
  return new DeliveryError(`${where}/${key}: ${failure.name ?? 'Error'}: ${failure.message}`, { retryable, cause: error });
}
