import { createFileRoute } from '@tanstack/react-router';
import { RecordingDetail } from '../../../../features/recordings/detail/recording-detail.tsx';

export const Route = createFileRoute('/dashboard/services/interviews/$payloadReference')({
  component: InterviewPage,
});

function InterviewPage() {
  const { payloadReference } = Route.useParams();
  return <RecordingDetail kind="interviews" payloadReference={payloadReference} />;
}
