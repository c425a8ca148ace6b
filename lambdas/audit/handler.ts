import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implement } from '#core/http/route.ts';
import { trailState } from './trail/chain-state.ts';
import { listActivities } from './activities-service.ts';
import { deviceActivityRoutes } from './device-activity-routes.ts';

const [activities, , chainState] = auditEndpoints;
if (activities.id !== 'admin.activities.list') throw new Error(`audit handler expected admin.activities.list, found ${activities.id}`);
if (chainState.id !== 'getActivityChainState') throw new Error(`audit handler expected getActivityChainState, found ${chainState.id}`);

/**
 * Lambda entry of the `audit` endpoint group: `GET activities` (the tenant's user activity), `GET device_activities`
 * (the tenant's device API calls, ./device-activity-routes.ts) and `GET activities/chain` (both trails' hash chains).
 */
export const handler = createApiHandler({
  group: 'audit',
  endpoints: auditEndpoints,
  routes: {
    ...deviceActivityRoutes,
    // Admin surface: the router has checked `{client}` and the caller's tenant before this runs.
    [activities.id]: implement(activities, async (input, deps) => listActivities(deps, input.client as string, input.query)),
    [chainState.id]: implement(chainState, async (input, deps) => {
      const client = input.client as string;
      const [user, device] = await Promise.all([trailState(deps, 'user', client), trailState(deps, 'device', client)]);
      return { user_activity: user, device_activity: device };
    }),
  },
});
