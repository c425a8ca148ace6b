import { createFileRoute } from '@tanstack/react-router';
import { CompletenessSearch } from '../../../features/completeness/completeness-search.ts';
import { CompletenessScreen } from '../../../features/completeness/completeness-screen.tsx';
import { getAccountDefaults } from '../../../features/completeness/settings/account-defaults.ts';
import { RecordHistory } from '../../../features/history/record-history.tsx';
import { useSession } from '../../../lib/session/session-context.tsx';

export const Route = createFileRoute('/dashboard/services/completeness')({
  validateSearch: CompletenessSearch,
  component: CompletenessPage,
});

/** The completeness report, with the account defaults' history: one set per tenant, so its reference is the tenant's. */
function CompletenessPage() {
  const navigate = Route.useNavigate();
  const { state } = useSession();
  const tenant = state.client ?? '';
  return (
    <CompletenessScreen
      search={Route.useSearch()}
      onSearch={(next) => void navigate({ search: next, replace: true, resetScroll: false })}
      settingsHistory={(defaults) => (
        <RecordHistory entity="account-defaults" reference={tenant} readAction={getAccountDefaults.action} current={defaults} name="the account defaults" size="xs" />
      )}
    />
  );
}
