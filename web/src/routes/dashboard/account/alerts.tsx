import { createFileRoute } from '@tanstack/react-router';
import { AlertsSearch } from '../../../features/alerts/alert-filters.ts';
import { AlertsScreen } from '../../../features/alerts/alerts-screen.tsx';

export const Route = createFileRoute('/dashboard/account/alerts')({
  validateSearch: AlertsSearch,
  component: AlertsPage,
});

function AlertsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <AlertsScreen
      surface="tenant"
      title="Alerts"
      description="Operational and security alerts for your organisation. Clear an alert once it is dealt with; dismiss one to hide it from your own lists."
      search={search}
      onSearch={(next) => void navigate({ search: next, replace: true })}
    />
  );
}
