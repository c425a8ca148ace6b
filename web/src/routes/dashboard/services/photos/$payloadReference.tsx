import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/photos/$payloadReference')({
  component: PhotoPage,
});

function PhotoPage() {
  return <PendingScreen title="Photo" about="One payload: its details, data, comments and audit." />;
}
