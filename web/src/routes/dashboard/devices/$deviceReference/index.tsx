import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../../../components/page/page-header.tsx';
import { DeviceActions, DeviceDetailView } from '../../../../features/devices/device-detail-view.tsx';
import { useDevice } from '../../../../features/devices/api/get-device.ts';
import { DEVICE_PAGE_DESCRIPTION, DeviceBoundary } from '../../../../features/devices/device-error.tsx';
import { DevicePending } from '../../../../features/devices/device-pending.tsx';
import { deviceTitle } from '../../../../lib/device-labels.ts';
import { DeviceDetailSearch } from '../../../../features/devices/filters.ts';
import { CompletenessPanel } from '../../../../features/completeness/completeness-panel.tsx';
import { RecordingsTab } from '../../../../features/recordings/lists/recordings-tab.tsx';
import { listDeviceHistory } from '../../../../features/devices/api/list-device-history.ts';
import { RecordHistory } from '../../../../features/history/record-history.tsx';

export const Route = createFileRoute('/dashboard/devices/$deviceReference/')({
  validateSearch: DeviceDetailSearch,
  // The page renders once the device is here (fetched while the page's code still loads); the API module is imported
  // here, not statically, so it stays out of the first chunk (loaders are not split from it). A refused fetch stays in
  // the query cache and the page shows it under its own title (DeviceBoundary).
  loader: async ({ context, params }) => {
    const { deviceQueryOptions } = await import('../../../../features/devices/api/get-device.ts');
    await context.queryClient.ensureQueryData(deviceQueryOptions(context.session, params.deviceReference)).catch(() => undefined);
  },
  pendingComponent: DevicePending,
  component: DevicePage,
});

function DevicePage() {
  const { deviceReference } = Route.useParams();
  return (
    <DeviceBoundary deviceReference={deviceReference}>
      <LoadedDevicePage deviceReference={deviceReference} />
    </DeviceBoundary>
  );
}

function LoadedDevicePage({ deviceReference }: { deviceReference: string }) {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  // Named by model, number and user (the detail view reads the same device: one request, made by the loader).
  const device = useDevice(deviceReference);
  const name = deviceTitle(device.data);
  return (
    <>
      <PageHeader
        title={name}
        description={DEVICE_PAGE_DESCRIPTION}
        actions={
          <>
            {/* Who holds the device and in which group: kept as a version each time its sign-in changes them. */}
            <RecordHistory entity="device-assignment" reference={deviceReference} readAction={listDeviceHistory.action} current={device.data} name={`the assignment of ${name}`} />
            <DeviceActions deviceReference={deviceReference} />
          </>
        }
      />
      <DeviceDetailView
        deviceReference={deviceReference}
        search={search}
        onSearch={(next) => void navigate({ search: next, replace: true, resetScroll: false })}
        recordings={<RecordingsTab scope={{ device: deviceReference }} label={`Recordings of ${name}`} />}
        completeness={<CompletenessPanel subject={{ device: deviceReference }} name={name} />}
      />
    </>
  );
}
