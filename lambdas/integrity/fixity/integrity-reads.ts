import type { Dependencies } from '#core/dependencies.ts';
import { integrityKeys, readIntegrityCheck } from '#core/store/entities/integrity-check.ts';
import type { IntegrityCheck } from '#shared/contract/entities/integrity.ts';

/** Runs answered: a month of daily runs, enough for the panel's last run and its trend. */
const LATEST_RUNS = 31;

/** The tenant's latest fixity runs, newest first: one Query of its own INTEGRITY partition. */
export async function latestIntegrityChecks(deps: Pick<Dependencies, 'table'>, client: string): Promise<IntegrityCheck[]> {
  const page = await deps.table.query({ ...integrityKeys.checks(client), descending: true, limit: LATEST_RUNS });
  return page.items.map(readIntegrityCheck);
}
