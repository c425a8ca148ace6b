import { redirect, type ParsedLocation } from '@tanstack/react-router';
import type { Session } from './session.ts';

interface GuardInput {
  context: { session: Session };
  location: ParsedLocation;
}

/**
 * The auth guard (spec point 2): signed out goes to /sign-in, remembering where it was going. A missing profile is
 * loaded first (a reload keeps the token but the profile may be stale); its failure is only logged.
 */
export async function requireAuth({ context, location }: GuardInput): Promise<void> {
  if (!context.session.isLoggedIn) {
    throw redirect({ to: '/sign-in', search: { redirect: location.href } });
  }
  if (context.session.getState().user === undefined) await context.session.loadProfile();
}

/** /internal is the provider's area: a tenant user (or staff in support mode) is sent to /dashboard. */
export function requireStaff({ context }: GuardInput): void {
  if (!context.session.isAdmin) throw redirect({ to: '/dashboard' });
}

/** /dashboard is a tenant's area: staff outside support mode belong in /internal. */
export function requireTenant({ context }: GuardInput): void {
  if (context.session.isAdmin) throw redirect({ to: '/internal' });
}
