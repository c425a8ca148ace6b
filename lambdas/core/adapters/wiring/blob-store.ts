import type { PortAdapter } from '../../dependencies.ts';
import type { BlobStore } from '../../ports/blob-store.ts';
import { loadedOnFirstCall } from './loaded-on-first-call.ts';

const BLOB_STORE_METHODS = {
  put: true,
  get: true,
  head: true,
  presignGet: true,
  presignPut: true,
  setLegalHold: true,
  getLegalHold: true,
  setRetention: true,
  getRetention: true,
  destroy: true,
} as const satisfies Record<keyof BlobStore, true>;

/**
 * Payload objects in S3 (s3rver locally: S3 is the real engine in both modes). The S3 adapter and client load on the
 * first blob call, not at the function's start (loaded-on-first-call.ts).
 */
export const blobStoreAdapter: PortAdapter<'blobs'> = {
  port: 'blobs',
  build: (context) =>
    loadedOnFirstCall<BlobStore>(BLOB_STORE_METHODS, async () => {
      const [{ createS3BlobStore }, { s3ClientOf }] = await Promise.all([import('../aws/s3-blob-store.ts'), import('./s3-client.ts')]);
      return createS3BlobStore(s3ClientOf(context), { raw: context.config.RAW_BUCKET, processed: context.config.PROCESSED_BUCKET });
    }),
};
