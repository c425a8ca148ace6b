import { createFileRoute } from '@tanstack/react-router';
import { ErasureRequestPending, ErasureRequestScreen } from '../../../features/erasure/erasure-request-page.tsx';

export const Route = createFileRoute('/dashboard/account/erasure-requests/$erasureRequestReference')({
  // The page renders once the request is here (fetched while the page's code still loads); a refused fetch (a request
  // about someone outside the user's groups is not found) stays in the query cache and the page shows it.
  loader: async ({ context, params }) => {
    const { erasureRequestQueryOptions } = await import('../../../features/erasure/api/erasure-api.ts');
    await context.queryClient.ensureQueryData(erasureRequestQueryOptions(context.session, params.erasureRequestReference)).catch(() => undefined);
  },
  pendingComponent: ErasureRequestPending,
  component: ErasureRequestPage,
});

function ErasureRequestPage() {
  const { erasureRequestReference } = Route.useParams();
  return <ErasureRequestScreen reference={erasureRequestReference} />;
}
