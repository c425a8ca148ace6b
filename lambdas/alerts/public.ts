/**
 * The alerts area's public module: what other areas use of it, and the only module of lambdas/alerts they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { unionPermissions } from './alert-permissions.ts';
export { expireDueAlerts } from './expire-alerts.ts';
export { raiseAlert } from './raise-alert.ts';
export { relatedEntity } from './related-entities.ts';
export { raiseSecurityAlert, securityAlertWrites } from './security-events.ts';
