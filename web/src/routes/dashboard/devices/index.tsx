import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../components/page/page-header.tsx';
import { DeviceList } from '../../../features/devices/device-list.tsx';
import { DevicesSearch } from '../../../features/devices/filters.ts';

export const Route = createFileRoute('/dashboard/devices/')({
  validateSearch: DevicesSearch,
  component: DevicesPage,
});

function DevicesPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader title="Devices" description="Mobile devices registered to your organisation. Open one for its details and commands." />
      <DeviceList search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />
    </>
  );
}
