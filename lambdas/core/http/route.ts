import type { z } from 'zod';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import type { AccessContext } from '../auth/access/access-context.ts';
import type { Principal } from '../auth/principal.ts';
import type { Dependencies } from '../dependencies.ts';
import { ItemTooLargeError } from '../errors.ts';
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
}

/** What an implementation returns: the response body (200), or a Reply for another status or headers. */
export type RouteResult<E extends Endpoint = Endpoint> = z.input<E['response']> | Reply<z.input<E['response']>>;

/** One endpoint's implementation. Thin: parse is done, it calls a service and returns what the contract says. */
export type RouteImplementation<E extends Endpoint = Endpoint> = (
  input: RouteInput<E>,
  dependencies: Dependencies,
) => Promise<RouteResult<E>>;

/** Implementations by endpoint id. An endpoint of the group without one answers 501. */
// `any` because each entry is typed against its own endpoint; `implement()` checks each one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Routes = Readonly<Record<string, RouteImplementation<any>>>;

/**
 * Types an implementation against its endpoint: `routes: { [listDevices.id]: implement(listDevices, async (input) => …) }`.
 * A record too large to store is answered with the path of the body field it came from, where the body has one.
 */
export function implement<E extends Endpoint>(endpoint: E, implementation: RouteImplementation<E>): RouteImplementation<E> {
  void endpoint;
  return async (input, dependencies) => {
    try {
      return await implementation(input, dependencies);
    } catch (error) {
      throw error instanceof ItemTooLargeError ? error.within(input.body) : error;
    }
  };
}
