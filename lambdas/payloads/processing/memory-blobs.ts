import { Readable } from 'node:stream';
import type { BlobStore, BucketName, ObjectRetention } from '../../core/ports/blob-store.ts';

/**
 * TEST DOUBLE: payload objects in memory for the processing's unit tests. Bodies are read in 1 KiB chunks, so the
 * decryption meets tags split across chunks; a stream PUT of the wrong length fails as S3's would.
 */
export function memoryBlobs(): BlobStore & { objects: Map<string, Buffer>; reads: string[] } {
  const objects = new Map<string, Buffer>();
  const reads: string[] = [];
  const holds = new Map<string, boolean>();
  const retentions = new Map<string, ObjectRetention>();
  const id = (bucket: BucketName, key: string) => `${bucket}/${key}`;
  const chunks = (data: Buffer) => Array.from({ length: Math.ceil(data.length / 1024) }, (_, n) => data.subarray(n * 1024, (n + 1) * 1024));
  const lastModified = new Date('2025-01-02T00:00:00Z');
  return {
    objects,
    reads,
    async put(bucket, key, body, options) {
      const parts: Buffer[] = [];
      if (body instanceof Uint8Array) parts.push(Buffer.from(body));
      else for await (const chunk of body) parts.push(chunk as Buffer);
      const data = Buffer.concat(parts);
      if (options?.contentLength !== undefined && data.length !== options.contentLength) throw new Error('length mismatch');
      objects.set(id(bucket, key), data);
      holds.set(id(bucket, key), options?.lock?.legalHold === true);
      const lock = options?.lock;
      if (lock?.mode === undefined) retentions.delete(id(bucket, key));
      else retentions.set(id(bucket, key), { mode: lock.mode, retainUntil: lock.retainUntil });
      return {};
    },
    async get(bucket, key) {
      const data = objects.get(id(bucket, key));
      if (data === undefined) return undefined;
      reads.push(id(bucket, key));
      return { contentLength: data.length, contentType: undefined, etag: undefined, metadata: {}, lastModified, body: Readable.from(chunks(data)) };
    },
    async head(bucket, key) {
      const data = objects.get(id(bucket, key));
      return data === undefined ? undefined : { contentLength: data.length, contentType: undefined, etag: undefined, metadata: {}, lastModified };
    },
    presignGet: async () => 'http://get',
    presignPut: async () => 'http://put',
    async setLegalHold(bucket, key, on) {
      if (!objects.has(id(bucket, key))) return false;
      holds.set(id(bucket, key), on);
      return true;
    },
    async getLegalHold(bucket, key) {
      return objects.has(id(bucket, key)) ? (holds.get(id(bucket, key)) ?? false) : undefined;
    },
    // As S3 does: extend freely; never shorten, and never turn COMPLIANCE into GOVERNANCE.
    async setRetention(bucket, key, retention) {
      if (!objects.has(id(bucket, key))) return false;
      const current = retentions.get(id(bucket, key));
      if (current !== undefined && (retention.retainUntil < current.retainUntil || (current.mode === 'COMPLIANCE' && retention.mode !== 'COMPLIANCE'))) {
        throw new Error('AccessDenied: retention may only be extended');
      }
      retentions.set(id(bucket, key), retention);
      return true;
    },
    async getRetention(bucket, key) {
      return objects.has(id(bucket, key)) ? (retentions.get(id(bucket, key)) ?? null) : undefined;
    },
    async destroy(bucket, key) {
      if (holds.get(id(bucket, key)) === true) throw new Error('AccessDenied: legal hold');
      holds.delete(id(bucket, key));
      return objects.delete(id(bucket, key));
    },
  };
}
