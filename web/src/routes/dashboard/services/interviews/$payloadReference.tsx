import { createFileRoute } from '@tanstack/react-router';
import { RecordingDetail } from '../../../../features/recordings/detail/recording-detail.tsx';
import { RecordingPending } from '../../../../features/recordings/detail/recording-pending.tsx';
import { commentHistory } from '../../../../features/history/comment-history.tsx';

export const Route = createFileRoute('/dashboard/services/interviews/$payloadReference')({
  // The page renders once the payload is here (fetched while the page's code still loads); the API module is imported
  // here, not statically, so the payloads contract stays out of the first chunk (loaders are not split from it). A
  // refused fetch stays in the query cache and the page shows it under its own title (RecordingDetail's boundary).
  loader: async ({ context, params }) => {
    const { payloadQueryOptions } = await import('../../../../features/recordings/api/get-payload.ts');
    await context.queryClient.ensureQueryData(payloadQueryOptions(context.session, params.payloadReference)).catch(() => undefined);
  },
  pendingComponent: RecordingPending,
  component: InterviewPage,
});

function InterviewPage() {
  const { payloadReference } = Route.useParams();
  return <RecordingDetail kind="interviews" payloadReference={payloadReference} commentHistory={commentHistory} />;
}
