import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { SUPPORT_ACCESS_APPROVAL_STATES } from '#shared/constants/account.ts';
import { useSession } from '../../lib/session/session-context.tsx';
import { StaffSupportScreen } from '../../features/support/staff-support-screen.tsx';

const SupportSearch = z.object({
  status: z.catch(z.optional(z.enum(SUPPORT_ACCESS_APPROVAL_STATES)), undefined),
});

export const Route = createFileRoute('/internal/support')({
  validateSearch: SupportSearch,
  component: SupportPage,
});

function SupportPage() {
  const { status = 'approved' } = Route.useSearch();
  const navigate = Route.useNavigate();
  const { session } = useSession();
  return (
    <StaffSupportScreen
      state={status}
      onState={(next) => void navigate({ search: { status: next } })}
      onEnter={(request, client) => void session.enterSupportMode(request.request_reference, client)}
    />
  );
}
