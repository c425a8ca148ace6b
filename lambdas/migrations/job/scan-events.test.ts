import { describe, expect, it } from 'vitest';
import type { JobRunner } from '#core/ports/job-runner.ts';
import { migrationOfObjectKey, resumeScannedMigrations } from './scan-events.ts';

const REFERENCE = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

/** GuardDuty's result for one object of the quarantine bucket (the scanner's copy: `<object key>/<revision>`). */
const scanResult = (bucketName: string, objectKey: string) => ({
  source: 'aws.guardduty',
  'detail-type': 'GuardDuty Malware Protection Object Scan Result',
  detail: { s3ObjectDetails: { bucketName, objectKey } },
});

function recordingRunner() {
  const started: Array<[string, Record<string, unknown>]> = [];
  const jobs: JobRunner = { start: async (job, input) => void started.push([job, input]) };
  return { jobs, started };
}

describe('scan results of legacy export files', () => {
  it('read the migration from the canonical file key only', () => {
    expect(migrationOfObjectKey(`acme/migrations/${REFERENCE}`)).toEqual({ client: 'acme', migration_reference: REFERENCE });
    expect(migrationOfObjectKey(`acme/payloads/${REFERENCE}`)).toBeUndefined();
    expect(migrationOfObjectKey('acme/migrations/not-a-ulid')).toBeUndefined();
    expect(migrationOfObjectKey(`Not_A_Client/migrations/${REFERENCE}`)).toBeUndefined();
    expect(migrationOfObjectKey(`acme/migrations/${REFERENCE}/extra`)).toBeUndefined();
  });

  it('start the import again when GuardDuty has scanned the file, and nothing for payloads or other buckets', async () => {
    const { jobs, started } = recordingRunner();
    const deps = { jobs, config: { SCAN_BUCKET: 'scan-bucket' } };
    expect(await resumeScannedMigrations(deps, scanResult('scan-bucket', `acme/migrations/${REFERENCE}/etag-1`))).toBe(1);
    expect(started).toEqual([['migration-import', { client: 'acme', migration_reference: REFERENCE }]]);
    expect(await resumeScannedMigrations(deps, scanResult('scan-bucket', `acme/payloads/${REFERENCE}/etag-1`))).toBe(0);
    expect(await resumeScannedMigrations(deps, scanResult('other-bucket', `acme/migrations/${REFERENCE}/etag-1`))).toBe(0);
    expect(await resumeScannedMigrations(deps, { job: 'alerts-expiry' })).toBeUndefined();
    expect(started).toHaveLength(1);
  });
});
