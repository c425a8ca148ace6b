import { createFileRoute } from '@tanstack/react-router';
import { ReferenceSearch } from '../../../features/access/reference-search.ts';
import { TagsScreen } from '../../../features/access/tags-screen.tsx';
import { getTag } from '../../../features/access/api/get-tag.ts';
import { RecordHistory } from '../../../features/history/record-history.tsx';

export const Route = createFileRoute('/dashboard/access/tags')({
  validateSearch: ReferenceSearch,
  component: TagsScreenPage,
});

function TagsScreenPage() {
  const navigate = Route.useNavigate();
  return (
    <TagsScreen
      search={Route.useSearch()}
      onSearch={(next) => void navigate({ search: next, replace: true })}
      history={(definition) => (
        <RecordHistory entity="tag-definition" reference={definition.tag_key} readAction={getTag.action} current={definition} name={`tag ${definition.tag_key}`} />
      )}
    />
  );
}
