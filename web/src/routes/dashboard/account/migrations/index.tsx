import { createFileRoute } from '@tanstack/react-router';
import { MigrationsSearch } from '../../../../features/migrations/migration-filters.ts';
import { MigrationsScreen } from '../../../../features/migrations/migrations-screen.tsx';

export const Route = createFileRoute('/dashboard/account/migrations/')({
  validateSearch: MigrationsSearch,
  component: MigrationsPage,
});

function MigrationsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <MigrationsScreen search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />;
}
