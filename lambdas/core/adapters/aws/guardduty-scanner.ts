import { GetObjectTaggingCommand, type S3Client } from '@aws-sdk/client-s3';
import type { BucketName } from '../../ports/blob-store.ts';
import type { MalwareScanner } from '../../ports/malware-scanner.ts';

/** The tag GuardDuty Malware Protection for S3 writes on each scanned object. */
export const GUARDDUTY_TAG = 'GuardDutyMalwareScanStatus';

/**
 * MalwareScanner on GuardDuty Malware Protection for S3: GuardDuty scans each upload by itself and tags the object;
 * this adapter only reads the verdict (no tag yet: pending). Results other than clean or infected (unsupported,
 * access denied, failed) are treated as infected, so nothing unscanned is released.
 */
export function createGuardDutyScanner(s3: S3Client, buckets: Record<BucketName, string>): MalwareScanner {
  return {
    async inspect(object) {
      const result = await s3.send(new GetObjectTaggingCommand({ Bucket: buckets[object.bucket], Key: object.key }));
      const status = result.TagSet?.find((tag) => tag.Key === GUARDDUTY_TAG)?.Value;
      if (status === undefined) return { verdict: 'pending' };
      if (status === 'NO_THREATS_FOUND') return { verdict: 'clean' };
      return { verdict: 'infected', signature: `GuardDuty:${status}` };
    },
  };
}
