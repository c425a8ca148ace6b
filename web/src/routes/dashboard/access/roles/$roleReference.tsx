import { createFileRoute } from '@tanstack/react-router';
import { RoleDetailScreen } from '../../../../features/access/role-pages.tsx';
import { RolePending } from '../../../../features/access/role-pending.tsx';
import { useActionCatalogue } from '../../../../features/access/use-action-catalogue.ts';
import { getRole } from '../../../../features/access/api/get-role.ts';
import { RecordHistory } from '../../../../features/history/record-history.tsx';

export const Route = createFileRoute('/dashboard/access/roles/$roleReference')({
  // The page renders once the role is here (fetched while the page's code still loads); the API module is imported
  // here, not statically, so it stays out of the first chunk (loaders are not split from it). A refused fetch stays in
  // the query cache and the page shows it under its own title (RoleDetailScreen's boundary).
  loader: async ({ context, params }) => {
    const { roleQueryOptions } = await import('../../../../features/access/api/get-role.ts');
    await context.queryClient.ensureQueryData(roleQueryOptions(context.session, params.roleReference)).catch(() => undefined);
  },
  pendingComponent: RolePending,
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
      history={(role) => <RecordHistory entity="role" reference={role.role_reference} readAction={getRole.action} current={role} name={`role ${role.role_reference}`} />}
    />
  );
}
