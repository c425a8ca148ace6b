import { createFileRoute } from '@tanstack/react-router';
import { ReferenceSearch } from '../../../features/access/reference-search.ts';
import { GroupsScreen } from '../../../features/access/groups-screen.tsx';
import { getGroup } from '../../../features/access/api/get-group.ts';
import { RecordHistory } from '../../../features/history/record-history.tsx';

export const Route = createFileRoute('/dashboard/access/groups')({
  validateSearch: ReferenceSearch,
  component: GroupsScreenPage,
});

function GroupsScreenPage() {
  const navigate = Route.useNavigate();
  return (
    <GroupsScreen
      search={Route.useSearch()}
      onSearch={(next) => void navigate({ search: next, replace: true })}
      history={(group) => <RecordHistory entity="group" reference={group.group_reference} readAction={getGroup.action} current={group} name={`group ${group.group_reference}`} />}
    />
  );
}
