import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/internal/statistics')({
  component: StatisticsPage,
});

function StatisticsPage() {
  return <PendingScreen title="Statistics" about="Device and payload statistics across clients." />;
}
