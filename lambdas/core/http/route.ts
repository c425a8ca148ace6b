import type { z } from 'zod';
import { callAction, type Endpoint } from '#shared/contract/endpoint.ts';
import type { AccessContext } from '../auth/access/access-context.ts';
import type { GroupScope } from '../auth/access/group-scope.ts';
import type { Principal } from '../auth/principal.ts';
import type { Dependencies } from '../dependencies.ts';
import type { ActivityRecordRef } from '../ports/activity-log.ts';
import { InternalError, ItemTooLargeError } from '../errors.ts';
import { callerOf, type Caller, type TenantCaller } from './caller.ts';
import type { Reply } from './reply.ts';

/** What an implementation receives: input that already passed the contract, and who is calling. */
export interface RouteInput<E extends Endpoint = Endpoint> {
  params: z.output<E['params']>;
  query: z.output<E['query']>;
  // `body` is optional on an endpoint, so its type is `Schema | undefined`: only a bare `undefined` means no body.
  body: [E['body']] extends [undefined] ? undefined : z.output<NonNullable<E['body']>>;
  /** The path's `{client}` (admin and client surfaces, internal `/clients/{client}/…`). */
  client: string | undefined;
  /** Undefined only on public endpoints. */
  principal: Principal | undefined;
  /**
   * What the caller may do, resolved and checked against the endpoint's action before the implementation runs.
   * Set for portal users, client apps and staff (support mode included); undefined on public and device endpoints.
   */
  access: AccessContext | undefined;
  requestId: string;
  /** The call's activity record, written `open` before a change acts: the record versions it keeps name it and carry its digest. */
  activity?: ActivityRecordRef | undefined;
}

/** What an implementation returns: the response body (200), or a Reply for another status or headers. */
export type RouteResult<E extends Endpoint = Endpoint> = z.input<E['response']> | Reply<z.input<E['response']>>;

/** One endpoint's implementation. Thin: parse is done, it calls a service and returns what the contract says. */
export type RouteImplementation<E extends Endpoint = Endpoint> = (
  input: RouteInput<E>,
  dependencies: Dependencies,
) => Promise<RouteResult<E>>;

/** What `implement` hands an implementation: the parsed input and the caller, the one object its services take. */
export interface ImplementedRouteInput<E extends Endpoint = Endpoint> extends RouteInput<E> {
  caller: Caller;
}

export type ImplementedRoute<E extends Endpoint = Endpoint> = (
  input: ImplementedRouteInput<E>,
  dependencies: Dependencies,
) => Promise<RouteResult<E>>;

/** Implementations by endpoint id. An endpoint of the group without one answers 501. */
// `any` because each entry is typed against its own endpoint; `implement()` checks each one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Routes = Readonly<Record<string, RouteImplementation<any>>>;

/**
 * Types an implementation against its endpoint, picked from its group by id (`#shared/contract/endpoint-of.ts`):
 * `const listDevices = endpointOf(deviceEndpoints, 'admin.devices.list')`, then
 * `routes: { [listDevices.id]: implement(listDevices, async (input) => …) }`.
 * A record too large to store is answered with the path of the body field it came from, where the body has one.
 */
export function implement<E extends Endpoint>(endpoint: E, implementation: ImplementedRoute<E>): RouteImplementation<E> {
  return async (input, dependencies) => {
    try {
      return await implementation({ ...input, caller: callerOf(callerFacts(endpoint, input, dependencies)) }, dependencies);
    } catch (error) {
      throw error instanceof ItemTooLargeError ? error.within(input.body) : error;
    }
  };
}

/** What a tenant route's implementation receives: the path's `{client}`, always there. */
export interface TenantRouteInput<E extends Endpoint = Endpoint> extends RouteInput<E> {
  /** The path's `{client}`, checked against the caller's tenant (or that the caller is staff) before this runs. */
  client: string;
  /** The caller's group scope for the call's action (`callAction`) in that tenant (403 where no permissions were resolved). */
  groupScope(): GroupScope;
  caller: TenantCaller;
}

export type TenantRouteImplementation<E extends Endpoint = Endpoint> = (
  input: TenantRouteInput<E>,
  dependencies: Dependencies,
) => Promise<RouteResult<E>>;

/**
 * `implement` for an endpoint whose path declares `{client}` (the admin and client surfaces, internal
 * `/clients/{client}/…`): the implementation gets `input.client` as a string. An endpoint without `{client}` in its
 * path is refused when the routes load; a call that reaches it without one is our bug (500), never the caller's.
 */
export function implementForTenant<E extends Endpoint>(endpoint: E, implementation: TenantRouteImplementation<E>): RouteImplementation<E> {
  if (!endpoint.fullPath.includes('{client}')) throw new Error(`${endpoint.id} has no {client} in its path: not a tenant route`);
  return implement(endpoint, (input, dependencies) => {
    const { client } = input;
    if (client === undefined) throw new InternalError(`${endpoint.id} reached without its path client`);
    const caller = callerOf({ ...callerFacts(endpoint, input, dependencies), tenant: client });
    return implementation({ ...input, client, caller, groupScope: caller.groupScope }, dependencies);
  });
}

function callerFacts<E extends Endpoint>(endpoint: E, input: RouteInput<E>, deps: Dependencies) {
  const { client: tenant, principal, access, requestId, activity } = input;
  return { deps, tenant, principal, access, requestId, action: callAction(endpoint, input.query), ...(activity === undefined ? {} : { activity }) };
}
