import { createFileRoute } from '@tanstack/react-router';
import { CasePending, CaseScreen } from '../../../features/cases/case-page.tsx';
import { CaseProductions } from '../../../features/productions/case-productions.tsx';

export const Route = createFileRoute('/dashboard/cases/$caseRef')({
  // The page renders once the case is here (fetched while the page's code still loads); a refused fetch (a case
  // outside the user's teams is not found) stays in the query cache and the page shows it under its own title.
  loader: async ({ context, params }) => {
    const { caseQueryOptions } = await import('../../../features/cases/api/cases-api.ts');
    await context.queryClient.ensureQueryData(caseQueryOptions(context.session, params.caseRef)).catch(() => undefined);
  },
  pendingComponent: CasePending,
  component: CasePage,
});

function CasePage() {
  const { caseRef } = Route.useParams();
  // The case's Productions panel is its own feature, composed here (no feature imports another).
  return <CaseScreen caseRef={caseRef} productions={<CaseProductions caseRef={caseRef} />} />;
}
