import { Duration } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Bucket, type CfnBucket, HttpMethods, type IBucket, ObjectLockRetention } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { ObjectLockDefault } from '../config/stage-config.ts';
import { privateDataBucketProps } from './private-bucket.ts';

export interface PayloadBucketProps {
  readonly encryptionKey: IKey;
  /** Receives the server access logs, under `<id>/`. */
  readonly accessLogsBucket: IBucket;
  /** Bucket-wide default retention; absent: Object Lock on, retention set per object by the app. */
  readonly objectLock?: ObjectLockDefault;
  /** Publish object events to EventBridge (the processing job listens there; no notification custom resource). */
  readonly eventBridge?: boolean;
  /**
   * Let browsers read pre-signed GET links with `fetch` (the player's waveform peaks, a message's text). Any origin:
   * the short-lived signed URL is the credential, and the data stack is deployed before the portal's domain exists.
   */
  readonly browserReads?: boolean;
  /**
   * Let browsers PUT to pre-signed upload links (the migrations screen sends a legacy export straight to the raw
   * bucket). Any origin, for the same reason: the signed URL is the credential.
   */
  readonly browserUploads?: boolean;
}

/**
 * A bucket of device payloads: versioned, Object Lock enabled (DESIGN.md §8: retention and legal holds map
 * to object retention and legal holds), SSE-KMS with the customer managed key, no public access, TLS 1.2+
 * only, server access logs kept.
 *
 * Note for writers: with a default retention, S3 refuses a PUT without `Content-MD5` or an
 * `x-amz-checksum-*` header, so pre-signed uploads must carry a checksum.
 */
export class PayloadBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: PayloadBucketProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      versioned: true,
      objectLockEnabled: true,
      objectLockDefaultRetention:
        props.objectLock === undefined
          ? undefined
          : props.objectLock.mode === 'COMPLIANCE'
            ? ObjectLockRetention.compliance(Duration.days(props.objectLock.days))
            : ObjectLockRetention.governance(Duration.days(props.objectLock.days)),
      ...privateDataBucketProps({ encryptionKey: props.encryptionKey, accessLogsBucket: props.accessLogsBucket, logPrefix: id }),
      lifecycleRules: [{ id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(7) }],
      ...(props.browserReads === true
        ? { cors: [{ allowedMethods: [HttpMethods.GET, HttpMethods.HEAD], allowedOrigins: ['*'], allowedHeaders: ['Range'], exposedHeaders: ['Content-Length', 'Content-Range', 'Accept-Ranges'] }] }
        : {}),
      ...(props.browserUploads === true
        ? { cors: [{ allowedMethods: [HttpMethods.PUT], allowedOrigins: ['*'], allowedHeaders: ['Content-Type', 'x-amz-checksum-*'], exposedHeaders: ['ETag'] }] }
        : {}),
    });
    if (props.eventBridge === true) {
      // Set on the resource directly: `eventBridgeEnabled` would add a custom-resource Lambda just for this flag.
      (this.bucket.node.defaultChild as CfnBucket).notificationConfiguration = {
        eventBridgeConfiguration: { eventBridgeEnabled: true },
      };
    }
  }
}
