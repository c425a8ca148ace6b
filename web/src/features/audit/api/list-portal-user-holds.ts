import { useQuery } from '@tanstack/react-query';
import { PAGE_SIZE_MAX } from '#shared/constants/limits.ts';
import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { HeldBy } from '#shared/contract/entities/legal-hold-ref.ts';
import { sessionQueryKey } from '../../../lib/api-hooks.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useSession } from '../../../lib/session/session-context.tsx';

/** `GET account/legal_holds`, active holds on portal users only. */
export const listPortalUserHolds = endpointOf(accountDataEndpoints, 'client.legal-holds.list');

const INPUT = { query: { target_type: 'PortalUser' as const, active_only: 'true' as const, limit: String(PAGE_SIZE_MAX) } };

/**
 * The active holds on one portal user, for the audit trail shown for that person (the portal has no other page for a
 * portal user). Every page is read: a hold on the second page must not read as "not held". Asked only when the caller
 * may list holds; an empty answer otherwise.
 */
export function usePortalUserHolds(person: string | undefined): readonly HeldBy[] {
  const { session, state } = useSession();
  const canList = useCan('legalHolds:List');
  const holds = useQuery({
    queryKey: [...sessionQueryKey(listPortalUserHolds, { client: state.client, supportReference: state.supportReference }, INPUT), 'all-pages'],
    enabled: canList.allowed && person !== undefined,
    staleTime: 30_000,
    queryFn: async ({ signal }) => {
      const targets: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await session.call(listPortalUserHolds, { query: { ...INPUT.query, ...(cursor === undefined ? {} : { last_key: cursor }) } }, signal);
        if (!('data' in page)) break;
        targets.push(...page.data.map((hold) => hold.target));
        cursor = page.last_key;
      } while (cursor !== undefined);
      return targets;
    },
  });
  if (person === undefined) return [];
  return (holds.data ?? []).filter((target) => target === person).map((target) => ({ target_type: 'PortalUser', target }));
}
