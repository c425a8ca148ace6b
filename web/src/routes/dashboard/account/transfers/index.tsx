import { createFileRoute } from '@tanstack/react-router';
import { TransfersSearch } from '../../../../features/transfers/transfer-filters.ts';
import { TransfersScreen } from '../../../../features/transfers/transfers-screen.tsx';

export const Route = createFileRoute('/dashboard/account/transfers/')({
  validateSearch: TransfersSearch,
  component: TransfersPage,
});

function TransfersPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <TransfersScreen search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />;
}
