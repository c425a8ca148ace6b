import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../../components/page/page-header.tsx';
import { RecordingsList } from '../../../../features/recordings/lists/recordings-list.tsx';
import { RecordingsSearch } from '../../../../features/recordings/lists/search.ts';

export const Route = createFileRoute('/dashboard/services/photos/')({
  validateSearch: RecordingsSearch,
  component: PhotosPage,
});

function PhotosPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader title="Photos" description="Photos taken with your devices. Previews are recorded in each photo’s audit trail." />
      <RecordingsList kind="photos" label="Photos" search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />
    </>
  );
}
