import { createFileRoute } from '@tanstack/react-router';
import { AuditSearch } from '../../../features/audit/audit-filters.ts';
import { AuditScreen } from '../../../features/audit/audit-screen.tsx';
import { ChainStatePanel } from '../../../features/audit/chain-state-panel.tsx';

export const Route = createFileRoute('/dashboard/account/audit')({
  validateSearch: AuditSearch,
  component: AuditPage,
});

function AuditPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <AuditScreen search={search} onSearch={(next) => void navigate({ search: next, replace: true })} chainState={<ChainStatePanel />} />;
}
