import { S3Client } from '@aws-sdk/client-s3';
import type { AdapterContext } from '../../dependencies.ts';
import { sdkLogger } from '../aws/sdk-logger.ts';
import { STAND_IN_CREDENTIALS } from './stand-in-credentials.ts';

/** The function's one S3 client (the blob store and the GuardDuty scanner share it); s3rver by endpoint locally. */
export function s3ClientOf({ config, logger, shared }: AdapterContext): S3Client {
  return shared(
    's3',
    () =>
      new S3Client({
        region: config.AWS_REGION,
        logger: sdkLogger(logger),
        ...(config.S3_ENDPOINT
          ? {
              endpoint: config.S3_ENDPOINT,
              credentials: STAND_IN_CREDENTIALS,
              // s3rver serves path-style URLs only, and stores streamed bodies corrupted when the SDK adds checksums.
              forcePathStyle: true,
              requestChecksumCalculation: 'WHEN_REQUIRED',
              responseChecksumValidation: 'WHEN_REQUIRED',
            }
          : {}),
      }),
  );
}
