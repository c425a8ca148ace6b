import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../components/page/page-header.tsx';
import { DeviceLogs } from '../../../features/devices/device-logs.tsx';
import { DeviceLogsSearch } from '../../../features/devices/filters.ts';

export const Route = createFileRoute('/dashboard/devices/logs')({
  validateSearch: DeviceLogsSearch,
  component: DeviceLogsPage,
});

function DeviceLogsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader title="Device logs" description="Log lines uploaded by the devices, newest first." />
      <DeviceLogs search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />
    </>
  );
}
