import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../../components/page/page-header.tsx';
import { useMissingGaps } from '../../../../features/completeness/missing-in-lists.tsx';
import { RecordingsList } from '../../../../features/recordings/lists/recordings-list.tsx';
import { RecordingsSearch } from '../../../../features/recordings/lists/search.ts';

export const Route = createFileRoute('/dashboard/services/messages/')({
  validateSearch: RecordingsSearch,
  component: MessagesPage,
});

function MessagesPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  // What the phones' ledgers saw that no recording captured, where the recording would have been.
  const gaps = useMissingGaps('messages', search);
  return (
    <>
      <PageHeader title="Messages" description="SMS, MMS and RCS messages recorded by your devices, grouped by conversation." />
      <RecordingsList kind="messages" label="Messages" search={search} onSearch={(next) => void navigate({ search: next, replace: true })} gaps={gaps} />
    </>
  );
}
