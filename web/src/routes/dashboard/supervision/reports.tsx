import { createFileRoute } from '@tanstack/react-router';
import { ReportsSearch } from '../../../features/supervision/reports/reports-search.ts';
import { ReportsScreen } from '../../../features/supervision/reports/reports-screen.tsx';

export const Route = createFileRoute('/dashboard/supervision/reports')({
  validateSearch: ReportsSearch,
  component: ReportsPage,
});

function ReportsPage() {
  const navigate = Route.useNavigate();
  return <ReportsScreen search={Route.useSearch()} onSearch={(next) => void navigate({ search: next, replace: true })} />;
}
