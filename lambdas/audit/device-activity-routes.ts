import { listDeviceActivities } from '../device-data/reads.ts';
import { groupScope } from '#core/auth/access/group-scope.ts';
import { implement, type Routes } from '#core/http/route.ts';
import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';

const deviceActivities = auditEndpoints[1];
if (deviceActivities.id !== 'admin.device-activities.list') throw new Error(`audit handler expected admin.device-activities.list, found ${deviceActivities.id}`);

/** `GET device_activities`: the tenant's device API calls newest first (records: lambdas/audit/trail/record-device-activity.ts). */
export const deviceActivityRoutes: Routes = {
  [deviceActivities.id]: implement(deviceActivities, (input, deps) => {
    if (input.client === undefined) throw new Error('device activities need the path client');
    return listDeviceActivities(deps, input.client, input.query, groupScope(deps, input.client, input.access, deviceActivities.action));
  }),
};
