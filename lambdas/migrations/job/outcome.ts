import type { Dependencies } from '#core/dependencies.ts';
import type { MigrationItem } from '#core/store/entities/migration.ts';
import { keys } from '#core/store/keys.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import type { MigrationState } from '#shared/constants/account.ts';
import { raiseAlert } from '../../alerts/public.ts';
import { relatedEntity } from '../../alerts/public.ts';
import { dueMarkerPuts } from '../../account-data/public.ts';
import { endMarkerOperation } from '../../jobs/public.ts';
import { IMPORT_ACTION } from '../import-action.ts';

/** How a migration ends, and why when it is not a full success. */
export type MigrationEnd = { state: Exclude<MigrationState, 'Pending'>; message?: string };

const ALERTS: Partial<Record<MigrationEnd['state'], { subject: string; severity: 'Medium' | 'High'; scope: 'ops' | 'sec' }>> = {
  PartialFail: { subject: 'Legacy migration imported with errors', severity: 'Medium', scope: 'ops' },
  Failed: { subject: 'Legacy migration failed', severity: 'High', scope: 'ops' },
  // A file carrying malware is a security matter, as a quarantined payload is.
  Quarantined: { subject: 'Legacy migration file quarantined', severity: 'High', scope: 'sec' },
};

/**
 * Ends a Pending migration: its state, `migrated_at`, `error_message`, and the counters written with the last results.
 * The alert of an import that did not fully succeed is raised first, so an end that is written always has its alert
 * (a retry after a failed write raises the same scoped alert again, which only adds an occurrence). False when the
 * migration had already ended or another invocation moved its checkpoint on (that one ends it).
 */
export async function endMigration(
  deps: Pick<Dependencies, 'table' | 'clock' | 'logger'>,
  migration: MigrationItem,
  outcome: MigrationEnd,
): Promise<boolean> {
  const alert = ALERTS[outcome.state];
  const reference = migration.migration_reference;
  if (alert !== undefined) {
    await raiseAlert(deps, migration.client, {
      scope: alert.scope,
      type: 'MigrationAlert',
      subject: alert.subject,
      key: `migration:${reference}`,
      keyType: 'Scoped',
      message: `Migration ${reference} (${migration.filename}): ${outcome.message ?? outcome.state}`,
      severity: alert.severity,
      relatedEntities: [relatedEntity(migration.client, 'Migration', reference)],
      apiAction: IMPORT_ACTION,
    });
  }
  const now = deps.clock.now().toISOString();
  const set = {
    migration_state: outcome.state,
    migrated_at: now,
    counters: migration.counters,
    tallies: migration.tallies,
    checkpoint_row: migration.checkpoint_row,
    ...(migration.progress === undefined ? {} : { progress: migration.progress }),
    ...(outcome.message === undefined ? {} : { error_message: outcome.message }),
  };
  try {
    // The ended migration is a retained record counted from its end: its retention due marker in the same transaction.
    await deps.table.transactWrite([
      {
        kind: 'update',
        key: keys.migration.key(migration.client, reference),
        update: { set },
        condition: {
          kind: 'expression',
          expression: 'migration_state = :pending AND checkpoint_row = :checkpoint',
          values: { ':pending': 'Pending', ':checkpoint': migration.checkpoint_row },
        },
      },
      ...dueMarkerPuts(migration.client, { ...keys.migration.item(migration.client, reference), ...set, migration_reference: reference }),
      // The import has ended: its running-job marker goes with the end, so the job-sweep never resumes it.
      endMarkerOperation(migration.client, 'migration', reference),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
  deps.logger.info('migration ended', { client: migration.client, migration_reference: reference, migration_state: outcome.state });
  return true;
}
