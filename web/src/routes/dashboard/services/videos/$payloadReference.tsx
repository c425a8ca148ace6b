import { createFileRoute } from '@tanstack/react-router';
import { RecordingDetail } from '../../../../features/recordings/detail/recording-detail.tsx';

export const Route = createFileRoute('/dashboard/services/videos/$payloadReference')({
  // The payload is on its way while the page's code still loads; the API module is imported here, not statically, so
  // the payloads contract stays out of the first chunk (loaders are not split from it).
  loader: ({ context, params }) =>
    void import('../../../../features/recordings/api/get-payload.ts').then(({ payloadQueryOptions }) =>
      context.queryClient.prefetchQuery(payloadQueryOptions(context.session, params.payloadReference)),
    ),
  component: VideoPage,
});

function VideoPage() {
  const { payloadReference } = Route.useParams();
  return <RecordingDetail kind="videos" payloadReference={payloadReference} />;
}
