import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../components/page/page-header.tsx';
import { DeviceMetrics } from '../../../features/devices/device-metrics.tsx';
import { DeviceMetricsSearch } from '../../../features/devices/filters.ts';

export const Route = createFileRoute('/dashboard/devices/metrics')({
  validateSearch: DeviceMetricsSearch,
  component: DeviceMetricsPage,
});

function DeviceMetricsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader title="Device metrics" description="Payloads recorded per device, by day, week, month, year or in total." />
      <DeviceMetrics search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />
    </>
  );
}
