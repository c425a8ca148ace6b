import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/messages/$payloadReference')({
  component: MessagePage,
});

function MessagePage() {
  return <PendingScreen title="Message" about="One payload: its details, data, comments and audit." />;
}
