import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../../components/page/page-header.tsx';
import { DeviceActions, DeviceDetailView } from '../../../../features/devices/device-detail-view.tsx';
import { useDevice } from '../../../../features/devices/api/get-device.ts';
import { deviceTitle } from '../../../../lib/device-labels.ts';
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
  // Named by model, number and user once loaded (the detail view asks for the same device: one request).
  const device = useDevice(deviceReference);
  const name = device.data === undefined ? 'Device' : deviceTitle(device.data);
  return (
    <>
      <PageHeader
        title={name}
        description="The device's details, the commands sent to it, who held it and what it reported."
        actions={<DeviceActions deviceReference={deviceReference} />}
      />
      <DeviceDetailView
        deviceReference={deviceReference}
        search={search}
        onSearch={(next) => void navigate({ search: next, replace: true, resetScroll: false })}
        recordings={<RecordingsTab scope={{ device: deviceReference }} label={`Recordings of ${name}`} />}
      />
    </>
  );
}
