import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/account/alerts')({
  component: AlertsPage,
});

function AlertsPage() {
  return <PendingScreen title="Alerts" about="Operational and security alerts for your organisation." />;
}
