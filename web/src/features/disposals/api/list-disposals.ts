import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET disposals`: what the retention job deleted or destroyed, newest first, under which rule. */
export const listDisposals = endpointOf(accountDataEndpoints, 'client.disposals.list');
export type DisposalQuery = NonNullable<CallInput<typeof listDisposals>['query']>;

export function useDisposals(query: DisposalQuery, enabled: boolean) {
  return useCursorList(listDisposals, { query }, { enabled });
}
