import { QueryClient } from '@tanstack/react-query';
import { isRedirect } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { CURRENT_TERMS } from '#shared/constants/terms.ts';
import type { SurfaceBases } from '../../lib/api-client.ts';
import { memoryStorage } from '../../lib/session/auth-storage.ts';
import { testSession } from '../../testing/test-session.ts';
import { requireTerms, TERMS_ACCEPTED_KEY } from './terms-guard.ts';

const BASES: SurfaceBases = { admin: '/api/v1', client: '/api/v1', internal: '/internal/v1', device: '/device/v1' };
const user = { reference: 'u-1', actions: [], groups: [], roles: [], payloadTypes: [] };

function setup(accepted: boolean, stored: object = {}) {
  let calls = 0;
  const fetch = (async () => {
    calls += 1;
    return new Response(JSON.stringify({ ...CURRENT_TERMS, accepted }), { status: 200 });
  }) as unknown as typeof globalThis.fetch;
  const storage = memoryStorage();
  const session = testSession({ client: 'demo', idToken: 't', expiresAt: Date.now() + 3_600_000, user, ...stored }, { storage, fetch, bases: BASES });
  const context = { session, queryClient: new QueryClient() };
  return { context, storage, calls: () => calls };
}

async function outcome(run: () => Promise<void>): Promise<string> {
  try {
    await run();
    return 'pass';
  } catch (thrown) {
    if (isRedirect(thrown)) return `redirect ${String(thrown.options.to)}`;
    throw thrown;
  }
}

describe('requireTerms', () => {
  it('sends a user who has not accepted the current terms to /terms', async () => {
    const t = setup(false);
    expect(await outcome(() => requireTerms({ context: t.context }, t.storage))).toBe('redirect /terms');
    expect(t.storage.getItem(TERMS_ACCEPTED_KEY)).toBeNull();
  });

  it('asks the server once, then trusts the mark for this user and these terms', async () => {
    const t = setup(true);
    expect(await outcome(() => requireTerms({ context: t.context }, t.storage))).toBe('pass');
    expect(t.storage.getItem(TERMS_ACCEPTED_KEY)).toBe(`demo/u-1/${CURRENT_TERMS.valid_from}`);
    t.context.queryClient.clear();
    expect(await outcome(() => requireTerms({ context: t.context }, t.storage))).toBe('pass');
    expect(t.calls()).toBe(1);
  });

  it('does not take another user\'s mark, nor a mark for older terms', async () => {
    const t = setup(false);
    t.storage.setItem(TERMS_ACCEPTED_KEY, `demo/someone-else/${CURRENT_TERMS.valid_from}`);
    expect(await outcome(() => requireTerms({ context: t.context }, t.storage))).toBe('redirect /terms');
    t.storage.setItem(TERMS_ACCEPTED_KEY, 'demo/u-1/2020-01-01T00:00:00.000Z');
    t.context.queryClient.clear();
    expect(await outcome(() => requireTerms({ context: t.context }, t.storage))).toBe('redirect /terms');
  });

  it('lets staff in support mode through without asking', async () => {
    const t = setup(false, { supportReference: 'sr-1' });
    expect(await outcome(() => requireTerms({ context: t.context }, t.storage))).toBe('pass');
    expect(t.calls()).toBe(0);
  });
});
