import { isRedirect, type ParsedLocation } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { requireAuth, requireStaff, requireTenant } from './guards.ts';
import type { Session } from './session.ts';
import { testSession } from '../../testing/test-session.ts';

const sessionWith = (stored?: object): Session => testSession(stored);

const location = (href: string) => ({ href, pathname: href }) as ParsedLocation;
const user = { reference: 'u', actions: [], groups: [], roles: [], payloadTypes: [] };
const signedIn = { idToken: 't', expiresAt: Date.now() + 3_600_000, user };

async function redirectOf(guard: () => unknown): Promise<{ to?: string; search?: object } | undefined> {
  try {
    await guard();
    return undefined;
  } catch (thrown) {
    if (!isRedirect(thrown)) throw thrown;
    return thrown.options as { to?: string; search?: object };
  }
}

describe('route guards', () => {
  it('auth: a signed-out visitor goes to /sign-in, remembering where they were going', async () => {
    const context = { session: sessionWith() };
    expect(await redirectOf(() => requireAuth({ context, location: location('/dashboard/devices?x=1') }))).toMatchObject({
      to: '/sign-in',
      search: { redirect: '/dashboard/devices?x=1' },
    });
  });

  it('auth: a signed-in visitor with a profile passes', async () => {
    const context = { session: sessionWith({ ...signedIn, client: 'demo' }) };
    expect(await redirectOf(() => requireAuth({ context, location: location('/dashboard') }))).toBeUndefined();
  });

  it('keeps tenant users out of /internal and staff (outside support mode) out of /dashboard', async () => {
    const tenant = { session: sessionWith({ ...signedIn, client: 'demo' }) };
    const staff = { session: sessionWith({ ...signedIn, client: 'admin' }) };
    const supporting = { session: sessionWith({ ...signedIn, client: 'demo', supportReference: 'sr-1' }) };
    expect(await redirectOf(() => requireStaff({ context: tenant, location: location('/internal') }))).toMatchObject({ to: '/dashboard' });
    expect(await redirectOf(() => requireStaff({ context: supporting, location: location('/internal') }))).toMatchObject({ to: '/dashboard' });
    expect(await redirectOf(() => requireStaff({ context: staff, location: location('/internal') }))).toBeUndefined();
    expect(await redirectOf(() => requireTenant({ context: staff, location: location('/dashboard') }))).toMatchObject({ to: '/internal' });
    expect(await redirectOf(() => requireTenant({ context: supporting, location: location('/dashboard') }))).toBeUndefined();
  });
});
