import { createFileRoute } from '@tanstack/react-router';
import { CreatePolicyScreen } from '../../../../features/supervision/policies/policy-pages.tsx';

export const Route = createFileRoute('/dashboard/supervision/policies/create')({
  component: CreatePolicyPage,
});

function CreatePolicyPage() {
  const navigate = Route.useNavigate();
  return (
    <CreatePolicyScreen
      onSaved={(policy) => void navigate({ to: '/dashboard/supervision/policies/$policyReference', params: { policyReference: policy.policy_reference } })}
    />
  );
}
