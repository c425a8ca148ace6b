import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/calls/')({
  component: CallsPage,
});

function CallsPage() {
  return <PendingScreen title="Calls" about="Calls recorded by your devices." />;
}
