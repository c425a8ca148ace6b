import { createFileRoute } from '@tanstack/react-router';
import { PolicyDetailScreen, PolicyPending } from '../../../../features/supervision/policies/policy-pages.tsx';
import { getPolicy } from '../../../../features/supervision/api/get-policy.ts';
import { RecordHistory } from '../../../../features/history/record-history.tsx';

export const Route = createFileRoute('/dashboard/supervision/policies/$policyReference')({
  // The page renders once the policy is here (fetched while the page's code still loads); the API module is imported
  // here, not statically, so the supervision contract stays out of the first chunk. A refused fetch stays in the query
  // cache and the page shows it under its own title (PolicyDetailScreen's boundary).
  loader: async ({ context, params }) => {
    const { policyQueryOptions } = await import('../../../../features/supervision/api/get-policy.ts');
    await context.queryClient.ensureQueryData(policyQueryOptions(context.session, params.policyReference)).catch(() => undefined);
  },
  pendingComponent: PolicyPending,
  component: PolicyPage,
});

function PolicyPage() {
  const { policyReference } = Route.useParams();
  const navigate = Route.useNavigate();
  return (
    <PolicyDetailScreen
      reference={policyReference}
      onDeleted={() => void navigate({ to: '/dashboard/supervision/policies' })}
      history={(policy) => (
        <RecordHistory entity="supervision-policy" reference={policy.policy_reference} readAction={getPolicy.action} current={policy} name={`policy ${policy.policy_reference}`} />
      )}
    />
  );
}
