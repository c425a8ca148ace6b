import { accessKeys } from './keys/access.ts';
import { auditKeys } from './keys/audit.ts';
import { deviceDataKeys } from './keys/device-data.ts';
import { devicesKeys } from './keys/devices.ts';
import { payloadsKeys } from './keys/payloads.ts';
import { retentionKeys } from './keys/retention.ts';
import { migrationsKeys } from './keys/migrations.ts';
import { transfersKeys } from './keys/transfers.ts';
import { jobsKeys } from './keys/jobs.ts';

/**
 * Key builders for every entity in the one table: the only place key strings are spelled (with key-parts.ts and the
 * area modules in keys/; docs/data-model.md has the access-pattern table). Every key value starts with `C#<client>#`,
 * so a Query built here cannot cross a tenant.
 */

export { ENTITY, part, tenantPrefix, timeSort } from './key-parts.ts';
export type { EntityName, ItemKeys, ListKey } from './key-parts.ts';
export type { TimedDeviceData, TimedList } from './keys/device-data.ts';
export { ACTIVITY_TRAILS, type ActivityTrail } from './keys/audit.ts';
export { objectKeyOfQuarantineKey, payloadObjectKey, quarantineObjectKey } from './keys/payloads.ts';

/** Every builder, by entity; the areas live under keys/ (access, audit, devices, payloads, device data, transfers, retention, migrations). */
export const keys = {
  ...accessKeys,
  ...auditKeys,
  ...devicesKeys,
  ...payloadsKeys,
  ...deviceDataKeys,
  ...transfersKeys,
  ...retentionKeys,
  ...migrationsKeys,
  ...jobsKeys,
};
