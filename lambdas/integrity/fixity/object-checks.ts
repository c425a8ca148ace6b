import { createHash } from 'node:crypto';
import type { Dependencies } from '#core/dependencies.ts';
import type { FixityFailureKind } from '#shared/contract/entities/integrity.ts';
import type { ObjectMark } from '#core/store/entities/integrity-check.ts';

type BlobDeps = Pick<Dependencies, 'blobs'>;

/** What one check found wrong with an object, with the words an alert gives it. */
export interface ObjectFault {
  kind: FixityFailureKind;
  detail: string;
}

/** The version the check compares from run to run: S3's VersionId where the bucket keeps versions, else its ETag. */
export const versionOf = (head: { versionId?: string | undefined; etag?: string | undefined }): string => head.versionId ?? head.etag ?? '';

/** The device's SHA-256 (hex, as the payload keeps it) as S3 writes a stored checksum: base64 of the raw digest. */
const base64OfHex = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

export type PresenceOutcome = { fault: ObjectFault } | { size: number; version: string };

/**
 * The daily check of one processed object without reading it: it is there, its size is the one first seen, its
 * version is the one first seen (an overwrite makes a new version, or a new ETag where there are no versions), and S3's
 * own stored SHA-256, where the upload gave it one, is the device's digest.
 */
export async function checkPresence(deps: BlobDeps, objectKey: string, deviceSha256: string | undefined, mark: ObjectMark | undefined): Promise<PresenceOutcome> {
  let head;
  try {
    head = await deps.blobs.head('processed', objectKey);
  } catch (error) {
    return { fault: { kind: 'unreadable', detail: `its stored object could not be read (${error instanceof Error ? error.message : String(error)})` } };
  }
  if (head === undefined) return { fault: { kind: 'missing', detail: 'its stored object is missing' } };
  const version = versionOf(head);
  if (head.checksumSha256 !== undefined && deviceSha256 !== undefined && head.checksumSha256 !== base64OfHex(deviceSha256)) {
    return { fault: { kind: 'changed', detail: 'the SHA-256 storage keeps for its object is not the device\'s digest' } };
  }
  if (mark !== undefined && (mark.version !== version || mark.size !== head.contentLength)) {
    return { fault: { kind: 'changed', detail: `its stored object was replaced since ${mark.first_checked_at} (another version or size)` } };
  }
  return { size: head.contentLength, version };
}

export type FullReadOutcome = { fault: ObjectFault } | { bytes: number };

/**
 * The cycle's check of one processed object: read in full and its SHA-256 compared with the device's digest. The
 * processed copy is the plaintext the device sealed (processing decrypts the sealed upload into it, verifying the same
 * digest on the way: lambdas/payloads/processing/content-pass.ts), so no key is needed to check it.
 */
export async function readInFull(deps: BlobDeps, objectKey: string, deviceSha256: string | undefined): Promise<FullReadOutcome> {
  let bytes = 0;
  const hash = createHash('sha256');
  try {
    const object = await deps.blobs.get('processed', objectKey);
    if (object === undefined) return { fault: { kind: 'missing', detail: 'its stored object is missing' } };
    for await (const chunk of object.body as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytes += chunk.length;
    }
  } catch (error) {
    return { fault: { kind: 'unreadable', detail: `its stored object could not be read in full (${error instanceof Error ? error.message : String(error)})` } };
  }
  if (deviceSha256 === undefined) return { fault: { kind: 'unreadable', detail: 'it has no device digest to verify its object against' } };
  if (hash.digest('hex') !== deviceSha256.toLowerCase()) return { fault: { kind: 'changed', detail: 'its stored bytes no longer match the device\'s SHA-256' } };
  return { bytes };
}
