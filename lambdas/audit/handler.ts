import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implement } from '#core/http/route.ts';
import { listActivities } from './activities-service.ts';

const [activities] = auditEndpoints;
if (activities.id !== 'admin.activities.list') throw new Error(`audit handler expected admin.activities.list, found ${activities.id}`);

/**
 * Lambda entry of the `audit` endpoint group: `GET activities` (the tenant's hash-chained user activity).
 * `GET device_activities` is issue 5 and answers 501 until then.
 */
export const handler = createApiHandler({
  group: 'audit',
  routes: {
    // Admin surface: the router has checked `{client}` and the caller's tenant before this runs.
    [activities.id]: implement(activities, async (input, deps) => listActivities(deps, input.client as string, input.query)),
  },
});
