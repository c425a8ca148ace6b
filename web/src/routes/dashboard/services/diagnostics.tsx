import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/diagnostics')({
  component: DiagnosticsPage,
});

function DiagnosticsPage() {
  return <PendingScreen title="Diagnostics" about="Diagnostic uploads from devices." />;
}
