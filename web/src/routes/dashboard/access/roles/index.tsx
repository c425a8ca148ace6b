import { createFileRoute } from '@tanstack/react-router';
import { ReferenceSearch } from '../../../../features/access/reference-search.ts';
import { RolesScreen } from '../../../../features/access/roles-screen.tsx';

export const Route = createFileRoute('/dashboard/access/roles/')({
  validateSearch: ReferenceSearch,
  component: RolesScreenPage,
});

function RolesScreenPage() {
  const navigate = Route.useNavigate();
  return <RolesScreen search={Route.useSearch()} onSearch={(next) => void navigate({ search: next, replace: true })} />;
}
