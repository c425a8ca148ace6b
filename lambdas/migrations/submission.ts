import type { TenantCaller } from '#core/http/caller.ts';
import { ulid } from 'ulid';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '#core/errors.ts';
import { migrationToItem, readMigration, toLegacyMigration, type MigrationItem } from '#core/store/entities/migration.ts';
import { keys, migrationObjectKey } from '#core/store/keys.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import type { MigrationSubmission, MigrationSubmissionRequest } from '#shared/contract/entities/migrations.ts';
import { trackedMigration, type MigrationImportInput } from './job/import-input.ts';
import { startTrackedJob } from '../jobs/public.ts';

/** Upload links live this long: enough to start a large upload over a slow line, short enough not to be kept. */
export const UPLOAD_URL_SECONDS = 60 * 60;
/** The upload is signed for this content type, so the PUT must send it (the file is read as bytes, whatever it is). */
export const UPLOAD_CONTENT_TYPE = 'application/octet-stream';

/**
 * A migration is account-wide: its rows name devices, users and payloads of every group. A role limited to some
 * groups would see (or import into) groups it may not, so it is refused outright rather than shown part of a file.
 */
export function requireAccountWide(caller: Pick<TenantCaller, 'groupScope'>): void {
  if (!caller.groupScope().unrestricted) throw new ForbiddenError('Legacy migrations are account-wide: a role limited to groups cannot use them');
}

/** The stored migration, or a 404 (another tenant's reference is simply not found in this one). */
export async function loadMigration(deps: Pick<Dependencies, 'table'>, client: string, reference: string): Promise<MigrationItem> {
  const item = await deps.table.get(keys.migration.key(client, reference), { consistent: true });
  if (item === undefined) throw new NotFoundError(`No migration ${reference}`);
  return readMigration(item);
}

/** A new Pending migration and the pre-signed PUT its file goes to (bytes never pass through the API). */
export async function submitMigration(caller: TenantCaller, request: MigrationSubmissionRequest): Promise<MigrationSubmission> {
  const { deps, tenant: client, principal } = caller;
  const reference = ulid(deps.clock.now().getTime());
  const now = deps.clock.now();
  const migration: MigrationItem = {
    client,
    migration_reference: reference,
    migration_state: 'Pending',
    filename: request.filename,
    counters: {},
    warnings: [],
    submitted_by: actorOf(principal),
    submitted_by_actor: actorRecordOf(principal),
    submitted_at: now.toISOString(),
    object_key: migrationObjectKey(client, reference),
    size_bytes: request.size_bytes,
    checkpoint_row: 0,
    invocations: 0,
    tallies: {},
  };
  await deps.table.put(migrationToItem(migration), { condition: { kind: 'item-not-exists' } });
  // Bound to the declared size, and SHA-256 when declared: storage refuses another file (the import's size check stays
  // as a second one). The contract's hex digest; S3 takes the raw digest in base64.
  const checksumSha256 = request.sha256 === undefined ? undefined : Buffer.from(request.sha256, 'hex').toString('base64');
  const uploadUrl = await deps.blobs.presignPut('raw', migration.object_key, {
    expiresInSeconds: UPLOAD_URL_SECONDS,
    contentType: UPLOAD_CONTENT_TYPE,
    contentLength: request.size_bytes,
    ...(checksumSha256 === undefined ? {} : { checksumSha256 }),
  });
  return {
    migration: toLegacyMigration(migration),
    upload_url: uploadUrl,
    upload_headers: { 'content-type': UPLOAD_CONTENT_TYPE, ...(checksumSha256 === undefined ? {} : { 'x-amz-checksum-sha256': checksumSha256 }) },
    upload_expires_at: new Date(now.getTime() + UPLOAD_URL_SECONDS * 1000).toISOString(),
  };
}

/**
 * Starts the import of an uploaded file, or resumes one that stopped (its job picks up after the last row resulted).
 * Refused with a 400 while the file is missing or not the size declared, and with a 409 once the migration is over.
 */
export async function startMigration(caller: TenantCaller, reference: string): Promise<LegacyMigration> {
  const { deps, tenant: client } = caller;
  const migration = await loadMigration(deps, client, reference);
  if (migration.migration_state !== 'Pending') {
    throw new ConflictError(`Migration ${reference} is ${migration.migration_state}: only a Pending migration can start`);
  }
  const head = await deps.blobs.head('raw', migration.object_key);
  if (head === undefined) throw new ValidationError([`migration_reference: The file of migration ${reference} has not been uploaded yet`]);
  if (head.contentLength !== migration.size_bytes) {
    throw new ValidationError([
      `migration_reference: The uploaded file has ${head.contentLength} bytes, not the ${migration.size_bytes} declared: submit it again`,
    ]);
  }
  const startedAt = migration.started_at ?? deps.clock.now().toISOString();
  try {
    const updated = await deps.table.update(
      keys.migration.key(client, reference),
      { set: { started_at: startedAt } },
      { condition: { kind: 'expression', expression: 'migration_state = :pending', values: { ':pending': 'Pending' } } },
    );
    const input: MigrationImportInput = { client, migration_reference: reference };
    // Its running-job marker first: an import whose start is lost is started by the job-sweep.
    await startTrackedJob(deps, trackedMigration(input));
    return toLegacyMigration(readMigration(updated ?? migrationToItem({ ...migration, started_at: startedAt })));
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ConflictError(`Migration ${reference} has just finished: it cannot start again`);
    throw error;
  }
}
