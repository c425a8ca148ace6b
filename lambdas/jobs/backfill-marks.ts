import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { allClients } from '#core/store/all-clients.ts';
import { readAccount } from '#core/store/entities/account.ts';
import { keys } from '#core/store/keys.ts';

/** The account attributes that say a tenant's index was backfilled whole (reads trust the index from then on). */
type BackfillMark = 'processed_indexed_at' | 'telemetry_indexed_at' | 'thread_indexed_at';

/** The tenants a backfill walks: the one named, or every tenant (listed from the tenants' index, never a Scan). */
export function backfillClients(deps: Pick<Dependencies, 'table'>, client: string | undefined): AsyncIterable<string> {
  return client === undefined ? allClients(deps.table) : single(client);
}

async function* single(client: string): AsyncGenerator<string> {
  yield client;
}

/** The tenant's index is whole: its first complete walk's time stays (a second run writes nothing). */
export async function markBackfilled(deps: Pick<Dependencies, 'table' | 'clock'>, client: string, mark: BackfillMark): Promise<void> {
  const account = await deps.table.get(keys.account.item(client), { consistent: true });
  if (account === undefined || readAccount(account)[mark] !== undefined) return;
  try {
    await deps.table.update(
      keys.account.item(client),
      { set: { [mark]: deps.clock.now().toISOString() } },
      { condition: { kind: 'expression', expression: 'attribute_exists(pk) AND attribute_not_exists(#at)', names: { '#at': mark } } },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}
