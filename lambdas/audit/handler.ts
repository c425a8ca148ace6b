import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implement } from '#core/http/route.ts';
import { listActivities } from './activities-service.ts';
import { deviceActivityRoutes } from './device-activity-routes.ts';

const [activities] = auditEndpoints;
if (activities.id !== 'admin.activities.list') throw new Error(`audit handler expected admin.activities.list, found ${activities.id}`);

/**
 * Lambda entry of the `audit` endpoint group: `GET activities` (the tenant's hash-chained user activity).
 * and `GET device_activities` (the tenant's device API calls, ./device-activity-routes.ts).
 */
export const handler = createApiHandler({
  group: 'audit',
  routes: {
    ...deviceActivityRoutes,
    // Admin surface: the router has checked `{client}` and the caller's tenant before this runs.
    [activities.id]: implement(activities, async (input, deps) => listActivities(deps, input.client as string, input.query)),
  },
});
