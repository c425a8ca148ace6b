import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/internal/alerts')({
  component: AlertsPage,
});

function AlertsPage() {
  return <PendingScreen title="Alerts" about="Operational and security alerts across clients." />;
}
