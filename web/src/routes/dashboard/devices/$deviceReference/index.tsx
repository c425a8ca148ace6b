import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../../components/page/page-header.tsx';
import { DeviceActions, DeviceDetailView } from '../../../../features/devices/device-detail-view.tsx';
import { DeviceDetailSearch } from '../../../../features/devices/filters.ts';
import { RecordingsTab } from '../../../../features/recordings/lists/recordings-tab.tsx';

export const Route = createFileRoute('/dashboard/devices/$deviceReference/')({
  validateSearch: DeviceDetailSearch,
  component: DevicePage,
});

function DevicePage() {
  const { deviceReference } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader
        title={`Device ${deviceReference}`}
        description="The device's details, the commands sent to it, who held it and what it reported."
        actions={<DeviceActions deviceReference={deviceReference} />}
      />
      <DeviceDetailView
        deviceReference={deviceReference}
        search={search}
        onSearch={(next) => void navigate({ search: next, replace: true, resetScroll: false })}
        recordings={<RecordingsTab scope={{ device: deviceReference }} label={`Recordings of ${deviceReference}`} />}
      />
    </>
  );
}
