import type { QueryClient } from '@tanstack/react-query';
import type { Session } from '../lib/session/session.ts';
import { userWith } from './render-signed-in.tsx';
import { testSession } from './test-session.ts';

/**
 * TEST HELPER: a session signed in to tenant `demo` holding `actions`, whose API answers every call with `status` and
 * `body` (a real Response through the client, so its checks and error mapping run).
 */
export function sessionAnswering(status: number, body: object, actions: readonly string[]): Session {
  const fetch = () => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
  return testSession({ client: 'demo', idToken: 't', expiresAt: Date.now() + 3_600_000, user: userWith(actions) }, { fetch: fetch as typeof globalThis.fetch });
}

/** TEST HELPER: runs a route's loader with `params` as the router would on navigation. */
export async function runLoader(route: { options: { loader?: unknown } }, context: { queryClient: QueryClient; session: Session }, params: object) {
  const loader = route.options.loader as (input: object) => Promise<unknown>;
  await loader({ context, params });
}
