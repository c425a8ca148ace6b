import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../../components/page/page-header.tsx';
import { RecordingsList } from '../../../../features/recordings/lists/recordings-list.tsx';
import { RecordingsSearch } from '../../../../features/recordings/lists/search.ts';

export const Route = createFileRoute('/dashboard/services/videos/')({
  validateSearch: RecordingsSearch,
  component: VideosPage,
});

function VideosPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader title="Videos" description="Videos recorded by your devices." />
      <RecordingsList kind="videos" label="Videos" search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />
    </>
  );
}
