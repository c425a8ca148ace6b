import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { SERVICES } from '#shared/constants/devices.ts';
import { DeviceUsersScreen, type DeviceUsersFilters } from '../../../../features/device-users/device-users-list.tsx';

/** Filters in the URL; junk is dropped (never a crash). */
const DeviceUsersSearch = z.object({
  status: z.catch(z.optional(z.enum(['active'])), undefined),
  group: z.catch(z.optional(z.string().check(z.minLength(2), z.maxLength(255))), undefined),
  service: z.catch(z.optional(z.enum(SERVICES)), undefined),
  search: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(255))), undefined),
});

export const Route = createFileRoute('/dashboard/devices/users/')({
  validateSearch: DeviceUsersSearch,
  component: DeviceUsersPage,
});

function DeviceUsersPage() {
  const filters = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <DeviceUsersScreen
      filters={filters}
      onFiltersChange={(next: DeviceUsersFilters) => void navigate({ search: next, replace: true })}
      onCreated={(user) =>
        void navigate({ to: '/dashboard/devices/users/$deviceUserReference', params: { deviceUserReference: user.device_user_reference } })
      }
    />
  );
}
