import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../../components/page/page-header.tsx';
import { useMissingGaps } from '../../../../features/completeness/missing-in-lists.tsx';
import { RecordingsList } from '../../../../features/recordings/lists/recordings-list.tsx';
import { RecordingsSearch } from '../../../../features/recordings/lists/search.ts';

export const Route = createFileRoute('/dashboard/services/calls/')({
  validateSearch: RecordingsSearch,
  component: CallsPage,
});

function CallsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  // What the phones' ledgers saw that no recording captured, where the recording would have been.
  const gaps = useMissingGaps('calls', search);
  return (
    <>
      <PageHeader title="Calls" description="Calls, aborted calls and blocked calls recorded by your devices. Open one to listen, comment or confirm receipt." />
      <RecordingsList kind="calls" label="Calls" search={search} onSearch={(next) => void navigate({ search: next, replace: true })} gaps={gaps} />
    </>
  );
}
