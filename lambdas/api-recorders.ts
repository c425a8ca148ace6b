import type { CallRecorders } from '#core/http/create-http-handler.ts';
import { securityAlerts } from './alerts/security-events.ts';
import { activityLog } from './audit/trail/activity-log.ts';

/**
 * The composition root's part that core cannot hold, since core knows no area: the API pipeline's activity log (the
 * audit trail) and security alerts, implemented by their areas and handed to every API function's pipeline by its
 * handler (`createApiHandler({ …, recorders: apiRecorders })`). It imports the implementations, not the areas' public
 * modules, so an API bundle holds the trail writer and the alert raiser only, as before.
 */
export const apiRecorders: CallRecorders = { activityLog, securityAlerts };
