import { createFileRoute } from '@tanstack/react-router';
import { PendingScreen } from '../../../../components/page/pending-screen.tsx';

export const Route = createFileRoute('/dashboard/services/photos/')({
  component: PhotosPage,
});

function PhotosPage() {
  return <PendingScreen title="Photos" about="Photos recorded by your devices." />;
}
