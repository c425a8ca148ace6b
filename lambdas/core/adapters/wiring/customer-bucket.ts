import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { STSClient } from '@aws-sdk/client-sts';
import type { Config } from '../../config.ts';

let sharedSts: STSClient | undefined;

/** STS, to assume a customer's role (AWS mode): one client per process, built on first use. */
export function stsClientOf(config: Pick<Config, 'AWS_REGION'>): STSClient {
  return (sharedSts ??= new STSClient({ region: config.AWS_REGION }));
}

/**
 * An S3 client on a bucket that is not ours (a transfer's destination), with the credentials it is reached by: the
 * customer's assumed role in AWS, the stand-in credentials on the local S3.
 */
export function customerBucketClient(config: Pick<Config, 'AWS_REGION' | 'S3_ENDPOINT'>, credentials: S3ClientConfig['credentials']): S3Client {
  return new S3Client({
    region: config.AWS_REGION,
    credentials,
    // The customer's bucket may live in another region: follow S3's redirect instead of failing.
    followRegionRedirects: true,
    // s3rver serves path-style URLs only, and stores streamed bodies corrupted when the SDK adds checksums.
    ...(config.S3_ENDPOINT
      ? { endpoint: config.S3_ENDPOINT, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
      : {}),
  });
}
