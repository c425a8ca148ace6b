import { createFileRoute } from '@tanstack/react-router';
import { RecordingDetail } from '../../../../features/recordings/detail/recording-detail.tsx';

export const Route = createFileRoute('/dashboard/services/photos/$payloadReference')({
  component: PhotoPage,
});

function PhotoPage() {
  const { payloadReference } = Route.useParams();
  return <RecordingDetail kind="photos" payloadReference={payloadReference} />;
}
