import type { AccessContext } from '../auth/access/access-context.ts';
import type { Principal } from '../auth/principal.ts';
import type { Dependencies } from '../dependencies.ts';
import { callerOf, type TenantCaller } from '../http/caller.ts';

/**
 * The caller a service test calls as, built the way `implementForTenant` builds it for a route: the tenant, the
 * resolved access and the endpoint's action, with the group and payload scopes that follow from them. A test hands
 * only the ports its service uses (a port it left out is undefined, and the service fails loudly on it).
 */
export function tenantCaller(
  deps: Partial<Dependencies>,
  tenant: string,
  access: AccessContext | undefined,
  call: { action: string; principal?: Principal; requestId?: string },
): TenantCaller {
  return callerOf({ deps: deps as Dependencies, tenant, access, principal: call.principal, action: call.action, requestId: call.requestId ?? 'test-request' });
}
