import { createFileRoute } from '@tanstack/react-router';
import { MigrationsSearch } from '../../../../features/migrations/migration-filters.ts';
import { MigrationsScreen } from '../../../../features/migrations/migrations-screen.tsx';
import { getMigrationConfig } from '../../../../features/migrations/api/get-migration-config.ts';
import { RecordHistory } from '../../../../features/history/record-history.tsx';
import { useSession } from '../../../../lib/session/session-context.tsx';

export const Route = createFileRoute('/dashboard/account/migrations/')({
  validateSearch: MigrationsSearch,
  component: MigrationsPage,
});

/** The migrations, with the import settings' history: one set per tenant, so its reference is the tenant's. */
function MigrationsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const { state } = useSession();
  const tenant = state.client ?? '';
  return (
    <MigrationsScreen
      search={search}
      onSearch={(next) => void navigate({ search: next, replace: true })}
      settingsHistory={(config) => (
        <RecordHistory entity="migration-settings" reference={tenant} readAction={getMigrationConfig.action} current={config} name="the import settings" size="xs" />
      )}
    />
  );
}
