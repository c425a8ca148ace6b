import { implementForTenant, type Routes } from '#core/http/route.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import { listDeviceActivityTrail } from './activities-service.ts';

const deviceActivities = endpointOf(auditEndpoints, 'admin.device-activities.list');

/** `GET device_activities`: the tenant's device API calls newest first (records: lambdas/core/http/device-activity.ts). */
export const deviceActivityRoutes: Routes = {
  [deviceActivities.id]: implementForTenant(deviceActivities, ({ caller, query }) => listDeviceActivityTrail(caller, query)),
};
