import { ClientId } from '#shared/contract/fields.ts';
import type { ItemKey, QuerySpec } from '../ports/table-store.ts';
import { TABLE_KEYS, type IndexName } from './table-definition.ts';

/**
 * What every key builder is made of (the builders live in their entity's module under entities/, composed in
 * keys.ts): entity tags, the key shapes, the tenant prefix that starts every key value, the escaping of key components
 * and the attributes of the table's generic indexes that an entity's named indexes map onto.
 */

/** Entity tags (TABLE_KEYS.entityAttribute). */
export const ENTITY = {
  account: 'Account',
  portalUser: 'PortalUser',
  termsAcceptance: 'TermsAcceptance',
  role: 'Role',
  group: 'Group',
  tagDefinition: 'TagDefinition',
  device: 'Device',
  deviceUser: 'DeviceUser',
  payload: 'Payload',
  alert: 'Alert',
  alertKey: 'AlertKey',
  alertOccurrence: 'AlertOccurrence',
  alertCounter: 'AlertCounter',
  userActivity: 'UserActivity',
  deviceActivity: 'DeviceActivity',
  clientApp: 'ClientApp',
  supportAccess: 'SupportAccess',
  auditHead: 'AuditHead',
  auditLink: 'AuditLink',
  auditCheckpoint: 'AuditCheckpoint',
  auditDisposedCount: 'AuditDisposedCount',
  deviceKeys: 'DeviceKeys',
  phoneNumber: 'PhoneNumber',
  licences: 'Licences',
  payloadMetrics: 'PayloadMetrics',
  metricTotals: 'MetricTotals',
  carrierSeen: 'CarrierSeen',
  dashboardCounters: 'DashboardCounters',
  deviceHistory: 'DeviceHistory',
  deviceCommand: 'DeviceCommand',
  deviceLastSeen: 'DeviceLastSeen',
  deviceLog: 'DeviceLog',
  gps: 'Gps',
  telemetry: 'Telemetry',
  comment: 'Comment',
  payloadAudit: 'PayloadAudit',
  payloadSweep: 'PayloadSweep',
  legalHold: 'LegalHold',
  migration: 'Migration',
  migrationResult: 'MigrationResult',
  retentionDue: 'RetentionDue',
  disposal: 'Disposal',
  transferConfig: 'TransferConfig',
  transfer: 'Transfer',
  transferFile: 'TransferFile',
  transferRecord: 'TransferRecord',
  transferWatermark: 'TransferWatermark',
  runningJob: 'RunningJob',
  supervisionPolicy: 'SupervisionPolicy',
  supervisionItem: 'SupervisionItem',
  supervisionHistory: 'SupervisionHistory',
  ledgerEntry: 'LedgerEntry',
  awaitingEntry: 'AwaitingEntry',
  completenessCounters: 'CompletenessCounters',
  recordVersion: 'RecordVersion',
  integrityCheck: 'IntegrityCheck',
  fixityCycle: 'FixityCycle',
  fixityObjectMark: 'FixityObjectMark',
  activityExport: 'ActivityExport',
  case: 'Case',
  caseSeat: 'CaseSeat',
  erasureRequest: 'ErasureRequest',
  pendingChange: 'PendingChange',
  pendingChangeLock: 'PendingChangeLock',
} as const;
export type EntityName = (typeof ENTITY)[keyof typeof ENTITY];

/** The key attributes an item carries: primary key, entity tag and whichever index keys place it in a list. */
export interface ItemKeys extends ItemKey {
  entity: EntityName;
  gsi1pk?: string;
  gsi1sk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
  gsi3pk?: string;
  gsi3sk?: string;
  by_processed_at_pk?: string;
  by_processed_at_sk?: string;
  by_thread_pk?: string;
  by_thread_sk?: string;
}

/** A list access pattern: which partition of which index (or the table) to Query, optionally narrowed by sort key. */
export type ListKey = Pick<QuerySpec, 'index' | 'partition'> & { sort?: { beginsWith: string } };

/** The tenant prefix. Refuses anything but a client slug: a key must never be built from unchecked input. */
export function tenantPrefix(client: string): string {
  if (!ClientId.safeParse(client).success) throw new Error(`Not a client slug: ${JSON.stringify(client.slice(0, 80))}`);
  return `C#${client}#`;
}

/**
 * One key component. `#` separates components and `%` escapes, so both are percent-encoded: a group named `a#b`
 * can never read as group `a` followed by another component, and prefix queries stay exact.
 */
export function part(value: string): string {
  return value.replace(/%/g, '%25').replace(/#/g, '%23');
}

/** Sort key for time-ordered lists: ISO-8601 UTC (sorts as text) then the reference that makes it unique. */
export function timeSort(time: Date | string, reference: string): string {
  const iso = typeof time === 'string' ? time : time.toISOString();
  return `${iso}#${part(reference)}`;
}

/** A list on the table (no index) or on one index's partition. */
export const list = (index: IndexName | undefined, partition: string): ListKey => (index ? { index, partition } : { partition });

/** A table list whose items' sort keys are `<prefix><reference>`, narrowed to references starting with `startsWith`. */
export const referenceList = (partition: string, prefix: string, startsWith: string | undefined): ListKey =>
  // Always narrowed to the entity's own sort-key prefix: the partition also holds the versions of its records.
  ({ partition, sort: { beginsWith: `${prefix}${startsWith === undefined ? '' : part(startsWith)}` } });

const [GSI1, GSI2, GSI3, PROCESSED, THREAD] = TABLE_KEYS.indexes;

/**
 * The attributes placing an item at `sort` in partition `partition` of one of the table's indexes. An entity names
 * its indexes after the access pattern they serve (`byTenantTime`, `byDevice`, …) and maps each name onto one of
 * these generic pairs: the deployed table keeps its generic indexes while the code reads by what each one is for.
 */
export const onIndex = {
  gsi1: (partition: string, sort: string) => ({ [GSI1.partitionKey]: partition, [GSI1.sortKey]: sort }),
  gsi2: (partition: string, sort: string) => ({ [GSI2.partitionKey]: partition, [GSI2.sortKey]: sort }),
  gsi3: (partition: string, sort: string) => ({ [GSI3.partitionKey]: partition, [GSI3.sortKey]: sort }),
  byProcessedAt: (partition: string, sort: string) => ({ [PROCESSED.partitionKey]: partition, [PROCESSED.sortKey]: sort }),
  byThread: (partition: string, sort: string) => ({ [THREAD.partitionKey]: partition, [THREAD.sortKey]: sort }),
} satisfies Record<IndexName, (partition: string, sort: string) => Partial<ItemKeys>>;

/** An entity's named indexes: the access pattern's name, the generic index it lives on. */
export type NamedIndexes = Readonly<Record<string, IndexName>>;
