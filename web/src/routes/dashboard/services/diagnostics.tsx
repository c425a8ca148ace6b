import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../components/page/page-header.tsx';
import { RecordingsList } from '../../../features/recordings/lists/recordings-list.tsx';
import { RecordingsSearch } from '../../../features/recordings/lists/search.ts';

export const Route = createFileRoute('/dashboard/services/diagnostics')({
  validateSearch: RecordingsSearch,
  component: DiagnosticsPage,
});

function DiagnosticsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader title="Diagnostics" description="Diagnostic bundles uploaded by the devices' app, for support." />
      <RecordingsList kind="diagnostics" label="Diagnostics" search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />
    </>
  );
}
