import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../../components/page/page-header.tsx';
import { RecordingsList } from '../../../../features/recordings/lists/recordings-list.tsx';
import { RecordingsSearch } from '../../../../features/recordings/lists/search.ts';

export const Route = createFileRoute('/dashboard/services/interviews/')({
  validateSearch: RecordingsSearch,
  component: InterviewsPage,
});

function InterviewsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader title="Interviews" description="Interviews recorded by your device users." />
      <RecordingsList kind="interviews" label="Interviews" search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />
    </>
  );
}
