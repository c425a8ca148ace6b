import { createFileRoute } from '@tanstack/react-router';
import { MigrationDetail } from '../../../../features/migrations/migration-detail.tsx';
import { MigrationResultsSearch } from '../../../../features/migrations/migration-filters.ts';

export const Route = createFileRoute('/dashboard/account/migrations/$migrationReference')({
  validateSearch: MigrationResultsSearch,
  component: MigrationPage,
});

function MigrationPage() {
  const { migrationReference } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <MigrationDetail
      key={migrationReference}
      reference={migrationReference}
      search={search}
      onSearch={(next) => void navigate({ search: next, replace: true })}
    />
  );
}
