import type { Readable } from 'node:stream';

/** Logical buckets; adapters map them to RAW_BUCKET and PROCESSED_BUCKET. */
export type BucketName = 'raw' | 'processed';

/**
 * S3 Object Lock settings for a write (DESIGN.md §8): retention synced to policy (a mode and a date, or neither), legal
 * holds as object holds.
 */
export type ObjectLockOptions = ({ mode: 'GOVERNANCE' | 'COMPLIANCE'; retainUntil: Date } | { mode?: undefined; retainUntil?: undefined }) & {
  legalHold?: boolean;
};

/**
 * An object's Object Lock retention: until `retainUntil` no one may delete or overwrite it. COMPLIANCE cannot be
 * shortened or removed by anyone; GOVERNANCE only by a caller allowed to bypass it (which this port never asks for).
 */
export interface ObjectRetention {
  mode: 'GOVERNANCE' | 'COMPLIANCE';
  retainUntil: Date;
}

export interface PutBlobOptions {
  contentType?: string;
  /** Required for a stream body: S3 needs the length up front. */
  contentLength?: number;
  metadata?: Record<string, string>;
  lock?: ObjectLockOptions;
}

export interface BlobHead {
  contentLength: number;
  contentType: string | undefined;
  etag: string | undefined;
  metadata: Record<string, string>;
  lastModified: Date | undefined;
  /** The object's version where the bucket keeps versions (S3 answers none locally: s3rver keeps no versions). */
  versionId?: string | undefined;
  /** The SHA-256 S3 stored with the object (base64), where the upload sent one: read by the fixity checks. */
  checksumSha256?: string | undefined;
}

export interface BlobObject extends BlobHead {
  body: Readable;
}

/** What a PUT link is bound to besides its object and lifetime. */
export interface PresignPutOptions {
  expiresInSeconds: number;
  contentType?: string;
  /** The declared size in bytes: a signed `content-length`. */
  contentLength: number;
  /** The declared SHA-256 as base64 of the raw digest: a signed `x-amz-checksum-sha256`, which S3 checks the body against. */
  checksumSha256?: string;
}

/**
 * Payload object storage (S3; s3rver locally). Keys are built by the store module and start with the tenant.
 * Pre-signed URLs are how devices upload and browsers play or download: bytes never pass through a Lambda.
 */
export interface BlobStore {
  put(bucket: BucketName, key: string, body: Uint8Array | Readable, options?: PutBlobOptions): Promise<{ etag?: string; versionId?: string }>;
  /** The object as a stream, or undefined when it does not exist. */
  get(bucket: BucketName, key: string): Promise<BlobObject | undefined>;
  head(bucket: BucketName, key: string): Promise<BlobHead | undefined>;
  /** A short-lived GET link; `downloadName` sets Content-Disposition: attachment. */
  presignGet(bucket: BucketName, key: string, options: { expiresInSeconds: number; downloadName?: string }): Promise<string>;
  /**
   * A short-lived PUT link for an upload. `contentLength` and `checksumSha256` (base64 of the raw digest) are signed
   * into it, so storage itself refuses a body of another size (SignatureDoesNotMatch) or another hash (BadDigest): the
   * uploader must send `Content-Length` and `x-amz-checksum-sha256` with exactly those values.
   */
  presignPut(bucket: BucketName, key: string, options: PresignPutOptions): Promise<string>;
  /**
   * Turns the object's Object Lock legal hold on or off (a legal hold on the person it records, DESIGN.md §8). While
   * on, no one can delete or overwrite the object. False when there is no such object.
   */
  setLegalHold(bucket: BucketName, key: string, on: boolean): Promise<boolean>;
  /** Whether the object's legal hold is on; undefined when there is no such object. */
  getLegalHold(bucket: BucketName, key: string): Promise<boolean | undefined>;
  /**
   * Sets the object's retention (PutObjectRetention): the retention policy kept in step (DESIGN.md §8). Extending is
   * always allowed; shortening, removing, or turning COMPLIANCE into GOVERNANCE is refused by S3 (an error). False when
   * there is no such object.
   */
  setRetention(bucket: BucketName, key: string, retention: ObjectRetention): Promise<boolean>;
  /** The object's retention; null when it has none, undefined when there is no such object. */
  getRetention(bucket: BucketName, key: string): Promise<ObjectRetention | null | undefined>;
  /**
   * Removes the object for good, every version of it (a destroyed recording, DESIGN.md §8); false when there was no
   * object. Never bypasses a lock: throws (AccessDenied) while a legal hold is on or its retention has not run out.
   */
  destroy(bucket: BucketName, key: string): Promise<boolean>;
}
