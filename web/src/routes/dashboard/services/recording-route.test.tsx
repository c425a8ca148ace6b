import { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { AppProviders } from '../../../app/providers.tsx';
import { Route as CallRoute } from './calls/$payloadReference.tsx';
import { testSession } from '../../../testing/test-session.ts';
import { userWith } from '../../../testing/render-signed-in.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { payloadQueryOptions } from '../../../features/recordings/api/get-payload.ts';
import { RecordingError } from '../../../features/recordings/detail/recording-error.tsx';

const REFERENCE = '01J0000000000000000000REF1';

const payload: Payload = {
  device_reference: 'D',
  payload_reference: REFERENCE,
  payload_state: 'Processed',
  payload_type: 'Call',
  is_legacy: false,
  is_late: false,
  updated_by: 'device',
};

/** A signed-in session whose API answers every call with `status` and `body` (a real Response through the client). */
function sessionAnswering(status: number, body: object) {
  const fetch = () => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
  return testSession({ client: 'demo', idToken: 't', expiresAt: Date.now() + 3_600_000, user: userWith(['payloads:Read']) }, { fetch: fetch as typeof globalThis.fetch });
}

/** Runs the call route's loader as the router would on navigation. */
async function load(queryClient: QueryClient, session: ReturnType<typeof testSession>) {
  const loader = CallRoute.options.loader as (input: object) => Promise<unknown>;
  await loader({ context: { queryClient, session }, params: { payloadReference: REFERENCE } });
}

const render = (queryClient: QueryClient, session: ReturnType<typeof testSession>, node: ReactNode) =>
  renderToString(
    <AppProviders queryClient={queryClient} session={session}>
      {node}
    </AppProviders>,
  );

describe("a recording's route", () => {
  it('has the recording in hand once its loader is done, so the page renders it at once', async () => {
    const queryClient = new QueryClient();
    const session = sessionAnswering(200, payload);
    await load(queryClient, session);
    expect(queryClient.getQueryData(payloadQueryOptions(session, REFERENCE).queryKey)).toEqual(payload);
    // What the page reads with useSuspenseQuery is there, fresh: it renders without suspending or asking again.
    expect(queryClient.getQueryState(payloadQueryOptions(session, REFERENCE).queryKey)?.status).toBe('success');
  });

  it('keeps a refusal for the page to show under its title with the API message, rather than failing the navigation', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const session = sessionAnswering(404, { error_code: 404, message: ['params.payload_reference: No payload with that reference'] });
    await load(queryClient, session);
    const error = queryClient.getQueryState(payloadQueryOptions(session, REFERENCE).queryKey)?.error;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    const html = render(queryClient, session, <RecordingError kind="calls" error={error} />);
    expect(html).toContain('>Call</h1>');
    expect(html).toContain('This recording could not be shown');
    expect(html).toContain((error as Error).message);
    expect((error as Error).message).not.toBe('');
  });
});
