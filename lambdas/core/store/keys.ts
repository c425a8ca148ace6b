import { accountKeys } from './entities/account.ts';
import { alertCounterKeys } from './entities/alert-counter.ts';
import { approvalKeys } from './entities/approval.ts';
import { awaitingEntryKeys } from './entities/awaiting-entry.ts';
import { alertKeyKeys } from './entities/alert-key.ts';
import { alertKeys, alertOccurrenceKeys } from './entities/alert.ts';
import { activityChainKeys } from './entities/audit-chain.ts';
import { carrierKeys } from './entities/carrier-seen.ts';
import { clientAppKeys } from './entities/client-app.ts';
import { commandKeys } from './entities/command.ts';
import { commentKeys } from './entities/comment.ts';
import { completenessCounterKeys } from './entities/completeness-counters.ts';
import { dashboardCounterKeys } from './entities/dashboard-counters.ts';
import { deviceActivityKeys } from './entities/device-activity.ts';
import { deviceKeysKeys } from './entities/device-keys.ts';
import { deviceLogKeys } from './entities/device-log.ts';
import { deviceUserKeys } from './entities/device-user.ts';
import { deviceHistoryKeys, deviceKeys, deviceLastSeenKeys } from './entities/device.ts';
import { disposalKeys } from './entities/disposal.ts';
import { gpsKeys } from './entities/gps.ts';
import { integrityKeys } from './entities/integrity-check.ts';
import { activityExportKeys } from './entities/activity-export.ts';
import { groupKeys } from './entities/group.ts';
import { legalHoldKeys } from './entities/legal-hold.ts';
import { caseKeys } from './entities/case.ts';
import { erasureRequestKeys } from './entities/erasure-request.ts';
import { ledgerEntryKeys } from './entities/ledger-entry.ts';
import { licenceKeys } from './entities/licences.ts';
import { migrationResultKeys } from './entities/migration-result.ts';
import { migrationKeys } from './entities/migration.ts';
import { payloadAuditKeys } from './entities/payload-audit.ts';
import { metricsKeys } from './entities/payload-metrics.ts';
import { payloadSweepKeys } from './entities/payload-sweep.ts';
import { payloadKeys } from './entities/payload.ts';
import { phoneNumberKeys } from './entities/phone-number.ts';
import { portalUserKeys } from './entities/portal-user.ts';
import { recordVersionKeys } from './entities/record-version.ts';
import { retentionDueKeys } from './entities/retention-due.ts';
import { retentionIndexedKey } from './entities/retention-indexed.ts';
import { retentionPolicyKey } from './entities/retention-policy.ts';
import { roleKeys } from './entities/role.ts';
import { runningJobKeys } from './entities/running-job.ts';
import { supervisionHistoryKeys } from './entities/supervision-history.ts';
import { supervisionItemKeys } from './entities/supervision-item.ts';
import { supervisionPolicyKeys } from './entities/supervision-policy.ts';
import { supportAccessKeys } from './entities/support-access.ts';
import { tagDefinitionKeys } from './entities/tag.ts';
import { telemetryKeys } from './entities/telemetry.ts';
import { termsAcceptanceKeys } from './entities/terms-acceptance.ts';
import { transferConfigKeys } from './entities/transfer-config.ts';
import { transferFileKeys, transferRecordKeys } from './entities/transfer-file.ts';
import { transferKeys, transferWatermarkKeys } from './entities/transfer.ts';
import { userActivityKeys } from './entities/user-activity.ts';

/**
 * Key builders for every entity in the one table, by entity. Each entity's module (entities/<entity>.ts) spells its
 * keys, next to its item schema, and names its indexes after the access patterns they serve; this module only
 * composes them into the one `keys.<entity>.<builder>` shape the services call. Every key value starts with
 * `C#<client>#`, so a Query built here cannot cross a tenant. docs/data-model.md's tables are generated from the
 * entity modules (`npm run docs:data-model`).
 */

export { ENTITY, part, tenantPrefix } from './key-parts.ts';
export type { ListKey } from './key-parts.ts';
export type { TimedList } from './entities/device.ts';
export { ACTIVITY_TRAILS, type ActivityTrail } from './entities/audit-chain.ts';
export { objectKeyOfQuarantineKey, payloadObjectKey, quarantineObjectKey } from './entities/payload.ts';
export { migrationObjectKey } from './entities/migration.ts';
export type { DueStage } from './entities/retention-due.ts';

/** Every builder, by entity (a few entities keep their builders under the entity whose partition they share). */
export const keys = {
  account: accountKeys,
  portalUser: portalUserKeys,
  termsAcceptance: termsAcceptanceKeys,
  role: roleKeys,
  group: groupKeys,
  tagDefinition: tagDefinitionKeys,
  clientApp: clientAppKeys,
  supportAccess: supportAccessKeys,
  userActivity: userActivityKeys,
  activityChain: activityChainKeys,
  device: { ...deviceKeys, ...deviceHistoryKeys, ...dashboardCounterKeys, ...deviceLastSeenKeys },
  deviceUser: deviceUserKeys,
  deviceKeys: deviceKeysKeys,
  licence: licenceKeys,
  metrics: metricsKeys,
  carrier: carrierKeys,
  phoneNumber: phoneNumberKeys,
  command: commandKeys,
  payload: { ...payloadKeys, ...payloadAuditKeys, ...payloadSweepKeys },
  comment: commentKeys,
  alert: { ...alertKeys, ...alertOccurrenceKeys, ...alertKeyKeys, ...alertCounterKeys },
  deviceActivity: deviceActivityKeys,
  deviceLog: deviceLogKeys,
  gps: gpsKeys,
  telemetry: telemetryKeys,
  transferConfig: transferConfigKeys,
  transfer: transferKeys,
  transferFile: transferFileKeys,
  transferRecord: transferRecordKeys,
  transferWatermark: transferWatermarkKeys,
  retentionPolicy: { key: retentionPolicyKey },
  retentionIndexed: { key: retentionIndexedKey },
  legalHold: legalHoldKeys,
  retentionDue: retentionDueKeys,
  disposal: disposalKeys,
  migration: migrationKeys,
  migrationResult: migrationResultKeys,
  runningJob: runningJobKeys,
  supervisionItem: supervisionItemKeys,
  supervisionHistory: supervisionHistoryKeys,
  supervisionPolicy: supervisionPolicyKeys,
  ledgerEntry: ledgerEntryKeys,
  awaitingEntry: awaitingEntryKeys,
  completenessCounters: completenessCounterKeys,
  recordVersion: recordVersionKeys,
  integrity: integrityKeys,
  activityExport: activityExportKeys,
  case: caseKeys,
  erasureRequest: erasureRequestKeys,
  approval: approvalKeys,
};
