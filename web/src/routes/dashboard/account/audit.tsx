import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { AuditSearch } from '../../../features/audit/audit-filters.ts';
import { AuditScreen } from '../../../features/audit/audit-screen.tsx';
import { ChainStatePanel } from '../../../features/audit/chain-state-panel.tsx';
import { ExportPanel } from '../../../features/audit/export-panel.tsx';
import { IntegrityPanel } from '../../../features/audit/integrity-panel.tsx';
import { DisposalSearchFields, type DisposalSearch } from '../../../features/disposals/disposal-filters.ts';
import { DisposalsPanel } from '../../../features/disposals/disposals-panel.tsx';
import { RecordingLink } from '../../../features/recordings/lists/links.tsx';

/** The activity trails' filters and the disposal records' filters, in one URL (their names do not overlap). */
const AuditPageSearch = z.extend(AuditSearch, DisposalSearchFields);

export const Route = createFileRoute('/dashboard/account/audit')({
  validateSearch: AuditPageSearch,
  component: AuditPage,
});

function AuditPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const setSearch = (next: typeof search) => void navigate({ search: next, replace: true });
  return (
    <AuditScreen
      search={search}
      onSearch={(next) => setSearch({ ...search, ...next })}
      chainState={
        <>
          <ChainStatePanel />
          <IntegrityPanel />
          <ExportPanel />
        </>
      }
      disposals={
        <DisposalsPanel
          search={search}
          onSearch={(patch: Partial<DisposalSearch>) => setSearch({ ...search, ...patch })}
          recordingLink={(type, reference) => (
            <RecordingLink type={type} reference={reference}>
              {reference}
            </RecordingLink>
          )}
        />
      }
    />
  );
}
