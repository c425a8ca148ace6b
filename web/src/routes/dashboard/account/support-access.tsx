import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/account/support-access')({
  component: SupportAccessPage,
});

function SupportAccessPage() {
  return <PendingScreen title="Support access" about="Requests from provider staff to act in your portal." />;
}
