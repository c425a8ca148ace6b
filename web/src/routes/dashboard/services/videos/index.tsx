import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/videos/')({
  component: VideosPage,
});

function VideosPage() {
  return <PendingScreen title="Videos" about="Videos recorded by your devices." />;
}
