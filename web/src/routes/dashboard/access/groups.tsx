import { createFileRoute } from '@tanstack/react-router';
import { ReferenceSearch } from '../../../features/access/reference-search.ts';
import { GroupsScreen } from '../../../features/access/groups-screen.tsx';

export const Route = createFileRoute('/dashboard/access/groups')({
  validateSearch: ReferenceSearch,
  component: GroupsScreenPage,
});

function GroupsScreenPage() {
  const navigate = Route.useNavigate();
  return <GroupsScreen search={Route.useSearch()} onSearch={(next) => void navigate({ search: next, replace: true })} />;
}
