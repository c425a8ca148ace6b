import type { TenantCaller } from '#core/http/caller.ts';
import { readMigration, toLegacyMigration } from '#core/store/entities/migration.ts';
import { keys } from '#core/store/keys.ts';
import { listPage, notDeletedByRetention, perItem, type QueryOf } from '#core/store/paging.ts';
import { isoOf, timeRange } from '#core/store/time-range.ts';
import type { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';

type ListQuery = QueryOf<typeof migrationEndpoints, 'client.migrations.list'>;

/** The tenant's migrations, newest first; `from`/`to` bound the submission time, `migration_state` keeps one state. */
export async function listMigrations(caller: TenantCaller, query: ListQuery) {
  const { deps, tenant: client } = caller;
  // Checked (a `from` after `to` is a 400) and turned into the ULID range the submissions were named in.
  const range = timeRange(query.from, query.to);
  const submitted =
    range === undefined
      ? undefined
      : { from: query.from === undefined ? 0 : Date.parse(isoOf(query.from, 'start')), to: query.to === undefined ? 2 ** 48 - 1 : Date.parse(isoOf(query.to, 'end')) };
  const state = query.migration_state;
  return listPage(deps, {
    client,
    query: { ...keys.migration.list(client, submitted), descending: true },
    filters: { migration_state: state },
    page: query,
    // A migration the retention job deleted or destroyed leaves the list.
    keep: perItem((item) => notDeletedByRetention(item) && (state === undefined || readMigration(item).migration_state === state)),
    toData: (item) => toLegacyMigration(readMigration(item)),
  });
}
