import { createFileRoute } from '@tanstack/react-router';
import { CompletenessSearch } from '../../../features/completeness/completeness-search.ts';
import { CompletenessScreen } from '../../../features/completeness/completeness-screen.tsx';

export const Route = createFileRoute('/dashboard/services/completeness')({
  validateSearch: CompletenessSearch,
  component: CompletenessPage,
});

function CompletenessPage() {
  const navigate = Route.useNavigate();
  return <CompletenessScreen search={Route.useSearch()} onSearch={(next) => void navigate({ search: next, replace: true, resetScroll: false })} />;
}
