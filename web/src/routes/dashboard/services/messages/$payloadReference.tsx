import { createFileRoute } from '@tanstack/react-router';
import { RecordingDetail } from '../../../../features/recordings/detail/recording-detail.tsx';

export const Route = createFileRoute('/dashboard/services/messages/$payloadReference')({
  component: MessagePage,
});

function MessagePage() {
  const { payloadReference } = Route.useParams();
  return <RecordingDetail kind="messages" payloadReference={payloadReference} />;
}
