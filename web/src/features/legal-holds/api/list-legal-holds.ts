import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { LegalHold } from '#shared/contract/entities/account-data.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET account/legal_holds`: holds on device users and portal users, active and released. */
export const listLegalHolds = endpointOf(accountDataEndpoints, 'client.legal-holds.list');

export type LegalHoldQuery = NonNullable<CallInput<typeof listLegalHolds>['query']>;

/** A hold is syncing while its objects are still being locked or unlocked; the list asks again until it is done. */
export function useLegalHolds(query: LegalHoldQuery, isSyncing: (hold: LegalHold) => boolean) {
  return useCursorList(listLegalHolds, { query }, { pollWhile: isSyncing });
}
