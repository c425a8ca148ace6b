import type { Dependencies } from '#core/dependencies.ts';
import { migrationObjectKey } from '#core/store/keys.ts';
import { ClientId, Ulid } from '#shared/contract/fields.ts';
import { scannedObjectsOf } from '../../payloads/public.ts';
import { MIGRATION_IMPORT_JOB, type MigrationImportInput } from './import-input.ts';

/** The migration whose export file a raw-bucket key is (`<client>/migrations/<reference>`), or undefined for any other key. */
export function migrationOfObjectKey(objectKey: string): MigrationImportInput | undefined {
  const match = /^([^/]+)\/migrations\/([^/]+)$/.exec(objectKey);
  if (match === null) return undefined;
  const [, client, reference] = match as unknown as [string, string, string];
  if (!ClientId.safeParse(client).success || !Ulid.safeParse(reference).success) return undefined;
  // Only the canonical spelling: the key the submission named.
  return migrationObjectKey(client, reference) === objectKey ? { client, migration_reference: reference } : undefined;
}

/**
 * In AWS the malware scan is asynchronous: the import's first invocation finds it pending and stops, and GuardDuty's
 * result event for the file's quarantine copy starts the import again here (payload files in the same event are
 * processing's). Answers how many imports it started; undefined when the event is not a scan result.
 */
export async function resumeScannedMigrations(
  deps: Pick<Dependencies, 'jobs'> & { config: { SCAN_BUCKET?: string | undefined } },
  event: unknown,
): Promise<number | undefined> {
  const scanned = scannedObjectsOf(event, deps.config.SCAN_BUCKET);
  if (scanned === undefined) return undefined;
  let started = 0;
  for (const objectKey of scanned) {
    const migration = migrationOfObjectKey(objectKey);
    if (migration === undefined) continue;
    await deps.jobs.start(MIGRATION_IMPORT_JOB, migration);
    started += 1;
  }
  return started;
}
