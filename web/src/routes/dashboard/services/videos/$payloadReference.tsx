import { createFileRoute } from '@tanstack/react-router';
import { RecordingDetail } from '../../../../features/recordings/detail/recording-detail.tsx';

export const Route = createFileRoute('/dashboard/services/videos/$payloadReference')({
  component: VideoPage,
});

function VideoPage() {
  const { payloadReference } = Route.useParams();
  return <RecordingDetail kind="videos" payloadReference={payloadReference} />;
}
