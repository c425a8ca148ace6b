import type { TenantCaller } from '#core/http/caller.ts';
import { readPortalUser } from '#core/store/entities/portal-user.ts';
import { keys } from '#core/store/keys.ts';
import { listPage, type QueryOf } from '#core/store/paging.ts';
import type { CasePerson } from '#shared/contract/entities/cases.ts';
import type { caseEndpoints } from '#shared/contract/endpoints/cases.ts';

/**
 * `GET cases/people`: the tenant's portal users by name and e-mail, so a case's team and portal-user custodians are
 * picked by name rather than typed as references. One partition per tenant (the provisioning command writes it).
 */
export function listCasePeople(caller: TenantCaller, query: QueryOf<typeof caseEndpoints, 'client.cases.people'>) {
  const { deps, tenant } = caller;
  return listPage(deps, {
    client: tenant,
    query: keys.portalUser.list(tenant),
    page: query,
    toData: (item): CasePerson | undefined => {
      const user = readPortalUser(item);
      if (user.user_reference === '') return undefined;
      return {
        user_reference: user.user_reference,
        ...(user.first_name === undefined ? {} : { first_name: user.first_name }),
        ...(user.surname === undefined ? {} : { surname: user.surname }),
        ...(user.email === undefined ? {} : { email: user.email }),
      };
    },
  });
}
