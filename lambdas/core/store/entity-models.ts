import type { EntityModel } from './entity-model.ts';
import { accountModel } from './entities/account.ts';
import { alertCounterModel } from './entities/alert-counter.ts';
import { pendingChangeLockModel, pendingChangeModel } from './entities/approval.ts';
import { awaitingEntryModel } from './entities/awaiting-entry.ts';
import { alertKeyModel } from './entities/alert-key.ts';
import { alertModel, alertOccurrenceModel } from './entities/alert.ts';
import { auditHeadModel, auditLinkModel, auditCheckpointModel, auditDisposedCountModel } from './entities/audit-chain.ts';
import { carrierSeenModel } from './entities/carrier-seen.ts';
import { clientAppModel } from './entities/client-app.ts';
import { commandModel } from './entities/command.ts';
import { commentModel } from './entities/comment.ts';
import { completenessCountersModel } from './entities/completeness-counters.ts';
import { dashboardCountersModel } from './entities/dashboard-counters.ts';
import { deviceActivityModel } from './entities/device-activity.ts';
import { deviceKeysModel } from './entities/device-keys.ts';
import { deviceLogModel } from './entities/device-log.ts';
import { deviceUserModel } from './entities/device-user.ts';
import { deviceModel, deviceHistoryModel, deviceLastSeenModel } from './entities/device.ts';
import { disposalModel } from './entities/disposal.ts';
import { gpsModel } from './entities/gps.ts';
import { fixityCycleModel, fixityObjectMarkModel, integrityCheckModel } from './entities/integrity-check.ts';
import { activityExportModel } from './entities/activity-export.ts';
import { groupModel } from './entities/group.ts';
import { legalHoldModel } from './entities/legal-hold.ts';
import { caseModel, caseSeatModel } from './entities/case.ts';
import { erasureRequestModel } from './entities/erasure-request.ts';
import { ledgerEntryModel } from './entities/ledger-entry.ts';
import { licencesModel } from './entities/licences.ts';
import { migrationResultModel } from './entities/migration-result.ts';
import { migrationModel } from './entities/migration.ts';
import { payloadAuditModel } from './entities/payload-audit.ts';
import { payloadMetricsModel, metricTotalsModel } from './entities/payload-metrics.ts';
import { payloadSweepModel } from './entities/payload-sweep.ts';
import { payloadModel } from './entities/payload.ts';
import { phoneNumberModel } from './entities/phone-number.ts';
import { portalUserModel } from './entities/portal-user.ts';
import { recordVersionModel } from './entities/record-version.ts';
import { retentionDueModel } from './entities/retention-due.ts';
import { roleModel } from './entities/role.ts';
import { runningJobModel } from './entities/running-job.ts';
import { supervisionHistoryModel } from './entities/supervision-history.ts';
import { supervisionItemModel } from './entities/supervision-item.ts';
import { supervisionPolicyModel } from './entities/supervision-policy.ts';
import { supportAccessModel } from './entities/support-access.ts';
import { tagDefinitionModel } from './entities/tag.ts';
import { telemetryModel } from './entities/telemetry.ts';
import { termsAcceptanceModel } from './entities/terms-acceptance.ts';
import { transferConfigModel } from './entities/transfer-config.ts';
import { transferFileModel, transferRecordModel } from './entities/transfer-file.ts';
import { transferModel, transferWatermarkModel } from './entities/transfer.ts';
import { userActivityModel } from './entities/user-activity.ts';

/**
 * Every stored entity's model (entity-model.ts), in the order docs/data-model.md lists them. Read by the doc's
 * generator and its tests only (scripts/docs/): no handler imports this.
 */
export const ENTITY_MODELS: readonly EntityModel[] = [
  accountModel,
  portalUserModel,
  termsAcceptanceModel,
  roleModel,
  groupModel,
  tagDefinitionModel,
  clientAppModel,
  supportAccessModel,
  deviceModel,
  deviceHistoryModel,
  deviceLastSeenModel,
  deviceUserModel,
  dashboardCountersModel,
  deviceKeysModel,
  phoneNumberModel,
  licencesModel,
  payloadMetricsModel,
  metricTotalsModel,
  carrierSeenModel,
  commandModel,
  deviceLogModel,
  gpsModel,
  telemetryModel,
  payloadModel,
  commentModel,
  payloadAuditModel,
  payloadSweepModel,
  alertModel,
  alertOccurrenceModel,
  alertKeyModel,
  alertCounterModel,
  userActivityModel,
  deviceActivityModel,
  auditHeadModel,
  auditLinkModel,
  auditCheckpointModel,
  auditDisposedCountModel,
  transferConfigModel,
  transferModel,
  transferFileModel,
  transferRecordModel,
  transferWatermarkModel,
  legalHoldModel,
  retentionDueModel,
  disposalModel,
  migrationModel,
  migrationResultModel,
  runningJobModel,
  supervisionItemModel,
  supervisionHistoryModel,
  supervisionPolicyModel,
  ledgerEntryModel,
  awaitingEntryModel,
  completenessCountersModel,
  recordVersionModel,
  integrityCheckModel,
  fixityCycleModel,
  fixityObjectMarkModel,
  activityExportModel,
  caseModel,
  caseSeatModel,
  erasureRequestModel,
  pendingChangeModel,
  pendingChangeLockModel,
];
