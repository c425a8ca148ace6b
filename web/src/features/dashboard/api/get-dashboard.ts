import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useQuery } from '@tanstack/react-query';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';

/** `GET dashboard`. */
export const getDashboard = endpointOf(deviceEndpoints, 'admin.dashboard.get');

/** The route's loader prefetches with these while the screen's code still loads. */
export function dashboardQueryOptions(session: Session) {
  return sessionQueryOptions(session, getDashboard, {});
}

export function useDashboard() {
  const { session } = useSession();
  return useQuery(dashboardQueryOptions(session));
}
