import { Duration } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { privateDataBucketProps } from './private-bucket.ts';

export interface ScanBucketProps {
  readonly encryptionKey: IKey;
  /** Receives the server access logs, under `<id>/`. */
  readonly accessLogsBucket: IBucket;
}

/** How long a plaintext copy may outlive a processing run that failed to delete it. */
const COPY_LIFETIME = Duration.days(1);

/**
 * The malware-scan quarantine: the jobs function writes a payload's decrypted plaintext here (the raw object is
 * ciphertext, which GuardDuty Malware Protection for S3 cannot judge), GuardDuty tags the copy with its verdict, and
 * the jobs function reads the tag and deletes the copy.
 *
 * Unlike the payload buckets it is neither versioned nor Object Locked: a deleted copy must really be gone, not
 * kept as a noncurrent version or under retention. The lifecycle rule removes any copy (or unfinished upload) a
 * failed run leaves within a day. Otherwise locked down like the payload buckets: SSE-KMS with the customer managed
 * key, no public access, TLS 1.2+ only, server access logs kept.
 */
export class ScanBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: ScanBucketProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      ...privateDataBucketProps({ encryptionKey: props.encryptionKey, accessLogsBucket: props.accessLogsBucket, logPrefix: id }),
      lifecycleRules: [{ id: 'expire-scan-copies', expiration: COPY_LIFETIME, abortIncompleteMultipartUploadAfter: COPY_LIFETIME }],
    });
  }
}
