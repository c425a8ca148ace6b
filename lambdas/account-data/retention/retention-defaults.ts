import { RETENTION_RECORD_TYPES, type RetentionRecordType } from '#shared/constants/account.ts';
import { PAYLOAD_TYPES, type PayloadType } from '#shared/constants/payloads.ts';
import type { RetentionPolicyRequest } from '#shared/contract/entities/account-data.ts';

/**
 * The retention a tenant has until it sets its own (docs/decisions.md "Retention defaults" says why each figure).
 * Chosen for a regulated firm: keep at least as long as the strictest common rule asks, then destroy, never the
 * other way round. Years are counted in days with their leap days (7 years = 2557 days).
 */

/** Days between the logical delete (recoverable) and the destruction (unrecoverable): the window to undo a mistake. */
export const DESTROY_GRACE_DAYS = 90;

/** Recorded communications: MiFID II / FCA SYSC 10A ask five years, seven on a regulator's request; SEC 17a-4 / FINRA 4511 six. */
export const COMMUNICATION_DAYS = 2557;
/** Records that prove how a recording was kept (its audit, custody and who held the device) outlive it by a year. */
export const CUSTODY_DAYS = COMMUNICATION_DAYS + 366;
/** Device diagnostics: operational, not a communication; a year covers the support cases they serve. */
export const DIAGNOSTICS_DAYS = 366;
/** Continuous location of staff: personal data kept no longer than its purpose needs (GDPR), one year. */
export const GPS_DAYS = 366;
/** Alerts: the supervisory review they prompted is kept three years (FINRA 3110 reviews, SEC 17a-4(b)). */
export const ALERT_DAYS = 1096;
/** Six years with their leap days: the limitation period for claims about how an erasure request was handled. */
export const ERASURE_REQUEST_DAYS = 2192;

const afterDays = (days: number) => ({ delete_after_days: days, destroy_after_days: days + DESTROY_GRACE_DAYS });

/** The record types whose default is a number of days of their own (CaptureLedgerData takes the calls', below). */
const RECORD_DAYS: Record<Exclude<RetentionRecordType, 'PayloadData' | 'CaptureLedgerData'>, number> = {
  AlertData: ALERT_DAYS,
  // A closed case is the record of what was held and handed over, and to whom: custody, so it outlives the recordings.
  CaseData: CUSTODY_DAYS,
  DeviceActivityData: CUSTODY_DAYS,
  DeviceData: CUSTODY_DAYS,
  DeviceUserData: CUSTODY_DAYS,
  // An erasure request and its report are the firm's evidence of how it handled the request: kept for the six-year
  // limitation period for claims about that handling (docs/decisions.md "Retention defaults").
  ErasureRequestData: ERASURE_REQUEST_DAYS,
  GpsData: GPS_DAYS,
  LegacyMigrationData: COMMUNICATION_DAYS,
  LegalHoldData: COMMUNICATION_DAYS,
  SupervisionData: COMMUNICATION_DAYS,
  SupportAccessData: CUSTODY_DAYS,
  TransferableData: CUSTODY_DAYS,
  UserActivityData: CUSTODY_DAYS,
};

/** One payload type's default: counted from when it was recorded, no receipts or transfers demanded first. */
export function defaultPayloadRetention(payloadType: PayloadType) {
  return {
    payload_type: payloadType,
    ...afterDays(payloadType === 'Diagnostics' ? DIAGNOSTICS_DAYS : COMMUNICATION_DAYS),
    retention_timestamp: 'payload_time' as const,
    required_receipts: 0,
    required_transfers: 0,
  };
}

/**
 * The phones' ledger entries (capture completeness) default to the calls' periods: an entry is the phone's word that
 * a call or message happened, the evidence that the recordings are complete, so it lasts as long as the recordings it
 * accounts for. It counts from its own start time, as a call counts from its `payload_time` by default.
 */
function callPeriods() {
  const { delete_after_days: deleteAfter, destroy_after_days: destroyAfter } = defaultPayloadRetention('Call');
  return { delete_after_days: deleteAfter, destroy_after_days: destroyAfter };
}

/** Every record type and every payload type, as the defaults set them. */
export function defaultRetention(): Required<RetentionPolicyRequest> {
  const records = Object.fromEntries(
    RETENTION_RECORD_TYPES.filter((type) => type !== 'PayloadData').map((type) => [type, type === 'CaptureLedgerData' ? callPeriods() : afterDays(RECORD_DAYS[type])]),
  ) as Omit<Required<RetentionPolicyRequest>, 'PayloadData' | 'regulatory_rules'>;
  // No rule until the tenant says which it is under: the defaults are above every rule's floor anyway.
  return { ...records, PayloadData: PAYLOAD_TYPES.map(defaultPayloadRetention), regulatory_rules: [] };
}

/**
 * The policy with every record type and every payload type: what the request leaves out keeps its default. A PUT
 * stores it complete, and a policy stored before a record type existed reads with that type's default.
 */
export function completePolicy(request: RetentionPolicyRequest): Required<RetentionPolicyRequest> {
  const defaults = defaultRetention();
  const given = new Map((request.PayloadData ?? []).map((entry) => [entry.payload_type, entry]));
  const records = Object.fromEntries(
    RETENTION_RECORD_TYPES.filter((type) => type !== 'PayloadData').map((type) => [type, request[type] ?? defaults[type]]),
  ) as Omit<Required<RetentionPolicyRequest>, 'PayloadData' | 'regulatory_rules'>;
  return {
    ...records,
    PayloadData: PAYLOAD_TYPES.map((type) => given.get(type) ?? defaultPayloadRetention(type)),
    regulatory_rules: request.regulatory_rules ?? [],
  };
}
