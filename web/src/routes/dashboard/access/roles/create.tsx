import { createFileRoute } from '@tanstack/react-router';
import { CreateRoleScreen } from '../../../../features/access/role-pages.tsx';
import { useActionCatalogue } from '../../../../features/access/use-action-catalogue.ts';

export const Route = createFileRoute('/dashboard/access/roles/create')({
  component: CreateRolePage,
});

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
