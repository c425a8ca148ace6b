import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';

/** `GET devices/{device_reference}`. */
export const getDevice = endpointOf(deviceEndpoints, 'admin.devices.get');

export function deviceQueryOptions(session: Session, deviceReference: string) {
  return sessionQueryOptions(session, getDevice, { params: { device_reference: deviceReference } });
}

/** The device its route's loader ensured (ensureQueryData with the same options); suspends while it is not there. */
export function useDevice(deviceReference: string) {
  const { session } = useSession();
  return useSuspenseQuery(deviceQueryOptions(session, deviceReference));
}
