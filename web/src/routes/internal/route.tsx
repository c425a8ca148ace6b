import { createFileRoute, Outlet } from '@tanstack/react-router';
import { INTERNAL_NAV } from '../../components/layout/nav.ts';
import { PortalShell } from '../../components/layout/portal-shell.tsx';
import { requireAuth, requireStaff } from '../../lib/session/guards.ts';

/** The internal layout: the provider's staff console. Guard: auth (and staff outside support mode). */
export const Route = createFileRoute('/internal')({
  beforeLoad: async (input) => {
    await requireAuth(input);
    requireStaff(input);
  },
  component: () => (
    <PortalShell nav={INTERNAL_NAV} area="Staff console">
      <Outlet />
    </PortalShell>
  ),
});
