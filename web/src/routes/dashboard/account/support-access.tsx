import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { TenantSupportScreen } from '../../../features/support/tenant-support-screen.tsx';

const SupportAccessSearch = z.object({
  view: z.catch(z.optional(z.enum(['pending', 'approved', 'history'])), undefined),
});

export const Route = createFileRoute('/dashboard/account/support-access')({
  validateSearch: SupportAccessSearch,
  component: SupportAccessPage,
});

function SupportAccessPage() {
  const { view = 'pending' } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <TenantSupportScreen view={view} onView={(next) => void navigate({ search: { view: next }, replace: true })} />;
}
