import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../components/page/page-header.tsx';
import { ServicesOverviewSearch } from '../../../features/recordings/lists/search.ts';
import { ServicesOverview } from '../../../features/recordings/overview/services-overview.tsx';

export const Route = createFileRoute('/dashboard/services/')({
  validateSearch: ServicesOverviewSearch,
  component: ServicesPage,
});

function ServicesPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader title="Services" description="Recordings by service and state for a period. Open a count to see the recordings it counts." />
      <ServicesOverview search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />
    </>
  );
}
