import type { AlertScope } from '#shared/constants/alerts.ts';
import type { AlertPermissions } from '#shared/contract/entities/alerts.ts';

/** Staff on the internal console act on every scope (the server treats them as full operators). */
export const STAFF_ALERT_PERMISSIONS: AlertPermissions = { ops_read: true, ops_write: true, sec_read: true, sec_write: true };

export const canReadScope = (permissions: AlertPermissions, scope: AlertScope): boolean => permissions[`${scope}_read`];
export const canClearScope = (permissions: AlertPermissions, scope: AlertScope): boolean => permissions[`${scope}_write`];
