import { DeleteObjectCommand, GetObjectTaggingCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { MalwareScanner } from '../../ports/malware-scanner.ts';
import { quarantineObjectKey } from '../../store/keys.ts';
import { isNotFound, sendPut } from './s3-blob-store.ts';

/** The tag GuardDuty Malware Protection for S3 writes on each scanned object. */
export const GUARDDUTY_TAG = 'GuardDutyMalwareScanStatus';

/**
 * MalwareScanner on GuardDuty Malware Protection for S3, which scans what lands in a bucket it protects. The raw
 * object is ciphertext, so processing's plaintext is copied to the quarantine bucket (`SCAN_BUCKET`: no versions, a
 * one-day expiry, readable by nobody but the jobs function and GuardDuty) and the verdict is read from the copy's tag:
 * - no copy yet: the plaintext is written there and the verdict is pending (GuardDuty's result event re-runs the
 *   processing, which finds the tag);
 * - a copy without a tag: still pending;
 * - a tag: the copy is deleted and the tag decides. Results other than NO_THREATS_FOUND (threats, unsupported,
 *   access denied, failed) count as infected, so nothing unscanned is ever released.
 */
export function createGuardDutyScanner(s3: S3Client, scanBucket: string | undefined): MalwareScanner {
  return {
    async inspect(subject) {
      if (scanBucket === undefined) throw new Error('Malware scanner not configured: SCAN_BUCKET missing');
      const key = quarantineObjectKey(subject.key, subject.revision);
      const status = await tagOf(s3, scanBucket, key);
      if (status === 'no-copy') {
        const body = await subject.body();
        const command = new PutObjectCommand({ Bucket: scanBucket, Key: key, Body: body, ContentLength: subject.contentLength, ContentType: 'application/octet-stream' });
        await sendPut(s3, command, body);
        return { verdict: 'pending' };
      }
      if (status === undefined) return { verdict: 'pending' };
      // The plaintext copy has served its purpose; the lifecycle rule removes any that a failure here leaves.
      await s3.send(new DeleteObjectCommand({ Bucket: scanBucket, Key: key })).catch(() => undefined);
      if (status === 'NO_THREATS_FOUND') return { verdict: 'clean' };
      return { verdict: 'infected', signature: `GuardDuty:${status}` };
    },
  };
}

/** The copy's scan tag: its value, undefined while GuardDuty has not tagged it, or 'no-copy'. */
async function tagOf(s3: S3Client, bucket: string, key: string): Promise<string | undefined | 'no-copy'> {
  try {
    const tags = await s3.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: key }));
    return tags.TagSet?.find((tag) => tag.Key === GUARDDUTY_TAG)?.Value;
  } catch (error) {
    if (isNotFound(error)) return 'no-copy';
    throw error;
  }
}
