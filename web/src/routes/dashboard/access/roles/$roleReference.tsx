import { createFileRoute } from '@tanstack/react-router';
import { RoleDetailScreen } from '../../../../features/access/role-pages.tsx';
import { useActionCatalogue } from '../../../../features/access/use-action-catalogue.ts';

export const Route = createFileRoute('/dashboard/access/roles/$roleReference')({
  component: RolePage,
});

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
