import type { PortAdapter } from '../../dependencies.ts';
import { createS3BlobStore } from '../aws/s3-blob-store.ts';
import { s3ClientOf } from './s3-client.ts';

/** Payload objects in S3 (s3rver locally: S3 is the real engine in both modes). */
export const blobStoreAdapter: PortAdapter<'blobs'> = {
  port: 'blobs',
  build: (context) => createS3BlobStore(s3ClientOf(context), { raw: context.config.RAW_BUCKET, processed: context.config.PROCESSED_BUCKET }),
};
