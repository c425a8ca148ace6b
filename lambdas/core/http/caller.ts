import { payloadAccess, type PayloadAccess } from '../auth/access/payload-access.ts';
import type { AccessContext } from '../auth/access/access-context.ts';
import { groupScope, type GroupScope } from '../auth/access/group-scope.ts';
import type { Principal } from '../auth/principal.ts';
import type { Dependencies } from '../dependencies.ts';
import type { ActivityRecordRef } from '../ports/activity-log.ts';
import { ForbiddenError } from '../errors.ts';

/**
 * Who is calling, in which tenant, with which rights, for which act: the one object a route hands the services it
 * calls (`service(caller, …its own arguments)`). Services read the tenant, the caller's rights and the endpoint's
 * action from here, so no service repeats an action the contract already declares.
 */
export interface Caller {
  /** The ports the service may use (the function's composition root built them). */
  deps: Dependencies;
  /** The path's `{client}`: undefined only outside the tenant surfaces (public, device, internal console). */
  tenant: string | undefined;
  /** Undefined only on public endpoints. */
  principal: Principal | undefined;
  /** The caller's resolved permissions; undefined on public and device endpoints. */
  access: AccessContext | undefined;
  /** The action this call needs: the endpoint's, or the one its query chose (`callAction`). */
  action: string;
  requestId: string;
  /** The call's activity record, opened before a change acts (record versions name it and carry their digest in it). */
  activity?: ActivityRecordRef;
  /** The groups the caller may act on for `action` (403 where no permissions were resolved). Built once per call. */
  groupScope(): GroupScope;
  /** The recordings the caller may see for `action`: payload types and group scope. Built once per call. */
  payloadScope(): PayloadAccess;
}

/** A caller on a tenant surface: the tenant is always known (checked against the caller's own before the route runs). */
export interface TenantCaller extends Caller {
  tenant: string;
}

/** What a caller is made of: all but the scopes, which follow from it. */
export type CallerFacts = Omit<Caller, 'groupScope' | 'payloadScope'>;

/** The caller of one request; `groupScope` and `payloadScope` are built on first use and kept for the call. */
export function callerOf(facts: CallerFacts & { tenant: string }): TenantCaller;
export function callerOf(facts: CallerFacts): Caller;
export function callerOf(facts: CallerFacts): Caller {
  let scope: GroupScope | undefined;
  let payloads: PayloadAccess | undefined;
  const tenantOf = (): string => {
    if (facts.tenant === undefined) throw new ForbiddenError('This call names no tenant');
    return facts.tenant;
  };
  return {
    ...facts,
    groupScope: () => (scope ??= groupScope(facts.deps, tenantOf(), facts.access, facts.action)),
    payloadScope: () => (payloads ??= payloadAccess(facts.deps, tenantOf(), facts.access, facts.action)),
  };
}
