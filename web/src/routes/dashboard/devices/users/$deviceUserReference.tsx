import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { LOG_LEVELS } from '#shared/constants/devices.ts';
import { ACTIVITY_TABS } from '../../../../features/device-users/activity-tabs.ts';
import { useDeviceUser } from '../../../../features/device-users/api/get-device-user.ts';
import { deviceUserName } from '../../../../features/device-users/device-user-form-model.ts';
import { DeviceUserActivity } from '../../../../features/device-users/device-user-activity.tsx';
import { DeviceUserDetail } from '../../../../features/device-users/device-user-detail.tsx';
import { DeviceUserPending } from '../../../../features/device-users/device-user-pending.tsx';
import { CompletenessPanel } from '../../../../features/completeness/completeness-panel.tsx';
import { RecordingsTab } from '../../../../features/recordings/lists/recordings-tab.tsx';
import { getDeviceUser } from '../../../../features/device-users/api/get-device-user.ts';
import { RecordHistory } from '../../../../features/history/record-history.tsx';

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

/** The open tab and its filters in the URL; junk is dropped (never a crash). */
const DeviceUserSearch = z.object({
  tab: z.catch(z.optional(z.enum(ACTIVITY_TABS)), undefined),
  active: z.catch(z.optional(z.enum(['true'])), undefined),
  level: z.catch(z.optional(z.enum(LOG_LEVELS)), undefined),
  from: z.catch(z.optional(day), undefined),
  to: z.catch(z.optional(day), undefined),
});

export const Route = createFileRoute('/dashboard/devices/users/$deviceUserReference')({
  validateSearch: DeviceUserSearch,
  // The page renders once the user is here (fetched while the page's code still loads); the API module is imported
  // here, not statically, so it stays out of the first chunk (loaders are not split from it). A refused fetch stays in
  // the query cache and the page shows it under its own title (DeviceUserDetail's boundary).
  loader: async ({ context, params }) => {
    const { deviceUserQueryOptions } = await import('../../../../features/device-users/api/get-device-user.ts');
    await context.queryClient.ensureQueryData(deviceUserQueryOptions(context.session, params.deviceUserReference)).catch(() => undefined);
  },
  pendingComponent: DeviceUserPending,
  component: DeviceUserPage,
});

function DeviceUserPage() {
  const { deviceUserReference } = Route.useParams();
  const filters = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <DeviceUserDetail
      reference={deviceUserReference}
      history={(user) => (
        <RecordHistory entity="device-user" reference={user.device_user_reference} readAction={getDeviceUser.action} current={user} name={`device user ${deviceUserName(user)}`} />
      )}
    >
      <DeviceUserCompleteness reference={deviceUserReference} />
      <DeviceUserActivity
        reference={deviceUserReference}
        filters={filters}
        onChange={(next) => void navigate({ search: next, replace: true })}
        recordings={<RecordingsTab scope={{ deviceUser: deviceUserReference }} label={`Recordings of ${deviceUserReference}`} />}
      />
    </DeviceUserDetail>
  );
}

/** The person's completeness panel, named as the page names them (the user the loader ensured: no second request). */
function DeviceUserCompleteness({ reference }: { reference: string }) {
  const user = useDeviceUser(reference);
  return <CompletenessPanel subject={{ deviceUser: reference }} name={deviceUserName(user.data)} mb="lg" />;
}
