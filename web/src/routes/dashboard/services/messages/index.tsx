import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/messages/')({
  component: MessagesPage,
});

function MessagesPage() {
  return <PendingScreen title="Messages" about="Messages recorded by your devices." />;
}
