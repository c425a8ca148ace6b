import { createFileRoute } from '@tanstack/react-router';
import { RecordingDetail } from '../../../../features/recordings/detail/recording-detail.tsx';

export const Route = createFileRoute('/dashboard/services/calls/$payloadReference')({
  component: CallPage,
});

function CallPage() {
  const { payloadReference } = Route.useParams();
  return <RecordingDetail kind="calls" payloadReference={payloadReference} />;
}
