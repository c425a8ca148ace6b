import { createFileRoute } from '@tanstack/react-router';
import { MigrationDetail } from '../../../../features/migrations/migration-detail.tsx';
import { MigrationPending } from '../../../../features/migrations/migration-pending.tsx';
import { MigrationResultsSearch } from '../../../../features/migrations/migration-filters.ts';

export const Route = createFileRoute('/dashboard/account/migrations/$migrationReference')({
  validateSearch: MigrationResultsSearch,
  // The page renders once the migration is here (fetched while the page's code still loads); the API module is imported
  // here, not statically, so it stays out of the first chunk (loaders are not split from it). A refused fetch stays in
  // the query cache and the page shows it under its own title (MigrationDetail's boundary).
  loader: async ({ context, params }) => {
    const { migrationQueryOptions } = await import('../../../../features/migrations/api/get-migration.ts');
    await context.queryClient.ensureQueryData(migrationQueryOptions(context.session, params.migrationReference)).catch(() => undefined);
  },
  pendingComponent: MigrationPending,
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
