import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/videos/$payloadReference')({
  component: VideoPage,
});

function VideoPage() {
  return <PendingScreen title="Video" about="One payload: its details, data, comments and audit." />;
}
