import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';

/** `GET users/{device_user_reference}`. */
export const getDeviceUser = endpointOf(deviceEndpoints, 'admin.users.get');

export function deviceUserQueryOptions(session: Session, deviceUserReference: string) {
  return sessionQueryOptions(session, getDeviceUser, { params: { device_user_reference: deviceUserReference } });
}

/** The device user its route's loader ensured (ensureQueryData with the same options); suspends while it is not there. */
export function useDeviceUser(deviceUserReference: string) {
  const { session } = useSession();
  return useSuspenseQuery(deviceUserQueryOptions(session, deviceUserReference));
}
