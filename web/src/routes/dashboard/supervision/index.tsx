import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../components/page/page-header.tsx';
import { SupervisionQueue } from '../../../features/supervision/queue/supervision-queue.tsx';
import { SupervisionQueueSearch } from '../../../features/supervision/queue/queue-search.ts';

export const Route = createFileRoute('/dashboard/supervision/')({
  validateSearch: SupervisionQueueSearch,
  component: QueuePage,
});

function QueuePage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader title="Review queue" description="Recordings raised by supervision policies (lexicon terms and sampling), each to be reviewed and closed with a disposition." />
      <SupervisionQueue search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />
    </>
  );
}
