import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, it } from 'vitest';
import { describeObjectLockContract } from './s3-object-lock.contract.ts';

/**
 * The stand-in's contract against real S3, so the local Object Lock stays honest: opt in with
 * `VERITY_REAL_S3_BUCKET=<an Object Lock-enabled bucket>` and AWS credentials in the environment (keys or a profile).
 * It runs in the unit project because the integration setup replaces the AWS credentials with the stand-ins'.
 * Objects go under `verity-object-lock-contract/`; COMPLIANCE ones are held for seconds only, then deleted.
 */
const bucket = process.env.VERITY_REAL_S3_BUCKET;
const credentials = Boolean(process.env.AWS_ACCESS_KEY_ID || process.env.AWS_PROFILE || process.env.AWS_WEB_IDENTITY_TOKEN_FILE);

if (bucket && credentials) {
  // The SDK defaults, as the deployed functions have them (checksums sent: S3 requires one with lock headers).
  const s3 = new S3Client({ region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION });
  afterAll(() => s3.destroy());
  describeObjectLockContract(`Object Lock on real S3 (bucket ${bucket})`, () => ({ s3, bucket }));
} else {
  describe('Object Lock on real S3', () => {
    it.skip(`skipped: set VERITY_REAL_S3_BUCKET (an Object Lock-enabled bucket) and AWS credentials to run the stand-in's contract against S3`, () => {});
  });
}
