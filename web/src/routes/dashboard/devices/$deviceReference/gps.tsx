import { Anchor } from '@mantine/core';
import { createFileRoute, Link } from '@tanstack/react-router';
import { PageHeader } from '../../../../components/page/page-header.tsx';
import { DeviceGpsView } from '../../../../features/devices/device-gps-view.tsx';
import { DeviceGpsSearch } from '../../../../features/devices/filters.ts';

export const Route = createFileRoute('/dashboard/devices/$deviceReference/gps')({
  validateSearch: DeviceGpsSearch,
  component: DeviceGpsPage,
});

function DeviceGpsPage() {
  const { deviceReference } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <>
      <PageHeader
        title="Device location"
        description={
          <>
            GPS points reported by device{' '}
            <Anchor
              inherit
              underline="always"
              renderRoot={(props) => <Link {...props} to="/dashboard/devices/$deviceReference" params={{ deviceReference }} />}
            >
              {deviceReference}
            </Anchor>
            .
          </>
        }
      />
      <DeviceGpsView
        deviceReference={deviceReference}
        search={search}
        onSearch={(next) => void navigate({ search: next, replace: true, resetScroll: false })}
      />
    </>
  );
}
