import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/calls/$payloadReference')({
  component: CallPage,
});

function CallPage() {
  return <PendingScreen title="Call" about="One payload: its details, data, comments and audit." />;
}
