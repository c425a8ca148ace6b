import { createFileRoute, Outlet } from '@tanstack/react-router';
import { DASHBOARD_NAV } from '../../components/layout/nav.ts';
import { PortalShell } from '../../components/layout/portal-shell.tsx';
import { AlertSummaryBadge } from '../../features/alerts/alert-summary-badge.tsx';
import { requireAuth, requireTenant } from '../../lib/session/guards.ts';
import { requireTerms } from '../../features/terms/terms-guard.ts';

/** The default layout: a tenant's portal. Guards: auth, then terms (spec point 2). */
export const Route = createFileRoute('/dashboard')({
  beforeLoad: async (input) => {
    await requireAuth(input);
    requireTenant(input);
    await requireTerms(input);
  },
  component: () => (
    <PortalShell nav={DASHBOARD_NAV} area="Portal" headerStatus={<AlertSummaryBadge />}>
      <Outlet />
    </PortalShell>
  ),
});
