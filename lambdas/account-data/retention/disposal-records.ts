import type { TenantCaller } from '#core/http/caller.ts';
import { claimedDisposal, toDisposal } from '#core/store/entities/disposal.ts';
import { keys } from '#core/store/keys.ts';
import { listPage, perItem, type QueryOf } from '#core/store/paging.ts';
import { timeRange } from '#core/store/time-range.ts';
import type { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';

/**
 * `GET disposals`: the tenant's disposal records, newest first. The time range (`from`/`to` on `disposed_at`) is a key
 * condition of the tenant's one disposal partition; record type, action and run id filter the items read (a run's
 * records sit together in time, so a run id with its day reads little).
 */
export async function listDisposals(caller: TenantCaller, query: QueryOf<typeof accountDataEndpoints, 'client.disposals.list'>) {
  const { deps, tenant: client } = caller;
  const range = timeRange(query.from, query.to);
  const keep = perItem((item) => {
    const disposal = claimedDisposal(item);
    if (disposal === undefined) return false;
    return (
      (query.record_type === undefined || disposal.record_type === query.record_type) &&
      (query.action === undefined || disposal.action === query.action) &&
      (query.run_id === undefined || disposal.run_id === query.run_id)
    );
  });
  return listPage(deps, {
    client,
    query: { ...keys.disposal.list(client), ...(range === undefined ? {} : { sort: { between: range } }), descending: true },
    filters: { record_type: query.record_type, action: query.action, run_id: query.run_id, from: query.from, to: query.to },
    page: query,
    keep,
    toData: (item) => {
      const disposal = claimedDisposal(item);
      return disposal === undefined ? undefined : toDisposal(disposal);
    },
  });
}
