import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/interviews/$payloadReference')({
  component: InterviewPage,
});

function InterviewPage() {
  return <PendingScreen title="Interview" about="One payload: its details, data, comments and audit." />;
}
