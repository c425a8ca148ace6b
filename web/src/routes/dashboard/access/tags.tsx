import { createFileRoute } from '@tanstack/react-router';
import { ReferenceSearch } from '../../../features/access/reference-search.ts';
import { TagsScreen } from '../../../features/access/tags-screen.tsx';

export const Route = createFileRoute('/dashboard/access/tags')({
  validateSearch: ReferenceSearch,
  component: TagsScreenPage,
});

function TagsScreenPage() {
  const navigate = Route.useNavigate();
  return <TagsScreen search={Route.useSearch()} onSearch={(next) => void navigate({ search: next, replace: true })} />;
}
