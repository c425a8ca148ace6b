import { createFileRoute } from '@tanstack/react-router';
import { payloadQueryOptions } from '../../../../features/recordings/api/get-payload.ts';
import { RecordingDetail } from '../../../../features/recordings/detail/recording-detail.tsx';

export const Route = createFileRoute('/dashboard/services/videos/$payloadReference')({
  // The payload is on its way while the page's code still loads.
  loader: ({ context, params }) => void context.queryClient.prefetchQuery(payloadQueryOptions(context.session, params.payloadReference)),
  component: VideoPage,
});

function VideoPage() {
  const { payloadReference } = Route.useParams();
  return <RecordingDetail kind="videos" payloadReference={payloadReference} />;
}
