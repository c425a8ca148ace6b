import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

export interface LogBucketProps {
  /** Days a log object is kept (the stage's log retention). */
  retentionDays: number;
  /** Who the bucket holds logs for, in the nag suppression's reason (it cannot log into itself). */
  logsOf: string;
  /** CloudFront standard logging writes with ACLs, so its bucket needs OBJECT_WRITER; S3 access logs do not. */
  objectOwnership?: ObjectOwnership;
}

/**
 * A bucket that receives access logs: SSE-S3 (S3 server access logging delivers only to SSE-S3 buckets, not SSE-KMS),
 * private, TLS only, expiring its logs after the stage's retention, kept when its stack goes.
 */
export function logBucket(scope: Construct, id: string, props: LogBucketProps): Bucket {
  const bucket = new Bucket(scope, id, {
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: props.objectOwnership ?? ObjectOwnership.BUCKET_OWNER_ENFORCED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    lifecycleRules: [{ id: 'expire-logs', expiration: Duration.days(props.retentionDays) }],
    removalPolicy: RemovalPolicy.RETAIN,
  });
  NagSuppressions.addResourceSuppressions(bucket, [
    { id: 'AwsSolutions-S1', reason: `This is the log bucket of ${props.logsOf}; logging it into itself would loop.` },
  ]);
  return bucket;
}
