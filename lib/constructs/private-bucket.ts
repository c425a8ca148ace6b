import { RemovalPolicy } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, BucketEncryption, type BucketProps, type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';

/**
 * What every bucket of recorded data shares: SSE-KMS with the customer managed key (with a bucket key: one KMS call
 * per bucket key period instead of per object, for cost and throttling), no public access, owner-enforced objects,
 * TLS 1.2+ only, server access logs under `<logPrefix>/`, and kept when a stack is deleted.
 */
export function privateDataBucketProps(props: { encryptionKey: IKey; accessLogsBucket: IBucket; logPrefix: string }): BucketProps {
  return {
    encryption: BucketEncryption.KMS,
    encryptionKey: props.encryptionKey,
    bucketKeyEnabled: true,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    serverAccessLogsBucket: props.accessLogsBucket,
    serverAccessLogsPrefix: `${props.logPrefix}/`,
    removalPolicy: RemovalPolicy.RETAIN,
  };
}
