import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { RoleDetailScreen } from '../../../../features/access/role-pages.tsx';

export const Route = createFileRoute('/dashboard/access/roles/$roleReference')({
  component: RolePage,
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

function RolePage() {
  const { roleReference } = Route.useParams();
  const catalogue = useActionCatalogue();
  const navigate = Route.useNavigate();
  return (
    <RoleDetailScreen
      reference={roleReference}
      catalogue={catalogue}
      onDeleted={() => void navigate({ to: '/dashboard/access/roles' })}
    />
  );
}
