import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/interviews/')({
  component: InterviewsPage,
});

function InterviewsPage() {
  return <PendingScreen title="Interviews" about="Interviews recorded by your devices." />;
}
