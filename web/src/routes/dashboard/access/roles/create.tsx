import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { CreateRoleScreen } from '../../../../features/access/role-pages.tsx';

export const Route = createFileRoute('/dashboard/access/roles/create')({
  component: CreateRolePage,
});

/**
 * The action catalogue lives in the contract registry, which holds every endpoint's schema: it is imported here
 * only, and lazily, so its chunk loads when the role editor opens and never with the rest of the portal.
 */
function useActionCatalogue() {
  const query = useQuery({
    queryKey: ['action-catalogue'],
    queryFn: async () => (await import('#shared/contract/registry.ts')).ACTION_CATALOGUE,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { catalogue: query.data, error: query.error };
}

function CreateRolePage() {
  const catalogue = useActionCatalogue();
  const navigate = Route.useNavigate();
  return (
    <CreateRoleScreen
      catalogue={catalogue}
      onSaved={(role) => void navigate({ to: '/dashboard/access/roles/$roleReference', params: { roleReference: role.role_reference } })}
    />
  );
}
