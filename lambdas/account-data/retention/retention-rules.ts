import type { RetentionRecordType } from '#shared/constants/account.ts';
import type { RetentionPolicyRequest } from '#shared/contract/entities/account-data.ts';
import type { DueStage } from '#core/store/keys.ts';
import { RECORD_TIME } from './due-index.ts';
import { completePolicy } from './retention-policy.ts';

/**
 * A policy read as the retention job and the preview use it: one rule per record type the due index covers (one per
 * payload type for PayloadData), each saying which marker partitions to read and up to which time.
 */

/** Record types whose records carry due markers: every type of the policy (docs/data-model.md "Retention due index"). */
export const INDEXED_RECORD_TYPES = [
  'PayloadData',
  'GpsData',
  'DeviceData',
  'AlertData',
  'UserActivityData',
  'DeviceActivityData',
  'DeviceUserData',
  'LegacyMigrationData',
  'LegalHoldData',
  'SupportAccessData',
  'TransferableData',
  'SupervisionData',
  'CaptureLedgerData',
  'CaseData',
  'ErasureRequestData',
] as const satisfies readonly RetentionRecordType[];
export type IndexedRecordType = (typeof INDEXED_RECORD_TYPES)[number];

export interface RetentionRule {
  recordType: IndexedRecordType;
  payloadType?: string | undefined;
  deleteAfterDays?: number | undefined;
  destroyAfterDays?: number | undefined;
  /** The marker kind the periods count from (a payload timestamp, or the record's own time). */
  kind: string;
  requiredReceipts: number;
  requiredTransfers: number;
}

/** Every rule of a (possibly partial) policy: what it leaves out keeps its default, as a PUT would store it. */
export function rulesOf(policy: RetentionPolicyRequest): RetentionRule[] {
  const complete = completePolicy(policy);
  const rules: RetentionRule[] = [];
  for (const recordType of INDEXED_RECORD_TYPES) {
    if (recordType === 'PayloadData') {
      for (const entry of complete.PayloadData) {
        rules.push({
          recordType,
          payloadType: entry.payload_type,
          deleteAfterDays: entry.delete_after_days,
          destroyAfterDays: entry.destroy_after_days,
          kind: entry.retention_timestamp,
          requiredReceipts: entry.required_receipts,
          requiredTransfers: entry.required_transfers,
        });
      }
      continue;
    }
    const periods = complete[recordType] ?? {};
    rules.push({
      recordType,
      deleteAfterDays: periods.delete_after_days,
      destroyAfterDays: periods.destroy_after_days,
      kind: RECORD_TIME,
      requiredReceipts: 0,
      requiredTransfers: 0,
    });
  }
  return rules;
}

/** One Query the job (or the preview) runs: the markers of one stage up to a cutoff, and what becomes of them. */
export interface DuePass {
  rule: RetentionRule;
  action: 'Deleted' | 'Destroyed';
  stage: DueStage;
  /** Base times at or before this are due. */
  cutoff: string;
  /**
   * The run's time: a destruction takes only what was deleted before it (`deleted_at`), so the deleted, restorable
   * state always outlives the run that deleted it, even with two runs at once.
   */
  runAt: string;
}

const DAY_MS = 86_400_000;

function cutoffOf(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString();
}

/**
 * The passes of one rule. Destruction reads the deleted stage (and the live one when the rule never deletes);
 * deletion reads the live stage. A record deleted in a run is destroyed in a later run at the earliest, because the
 * job runs every destruction pass before any deletion pass: the deleted state always lasts at least one run.
 */
export function destroyPasses(rule: RetentionRule, now: Date): DuePass[] {
  if (rule.destroyAfterDays === undefined) return [];
  const cutoff = cutoffOf(now, rule.destroyAfterDays);
  const stages: DueStage[] = rule.deleteAfterDays === undefined ? ['DELETED', 'LIVE'] : ['DELETED'];
  return stages.map((stage) => ({ rule, action: 'Destroyed', stage, cutoff, runAt: now.toISOString() }));
}

export function deletePasses(rule: RetentionRule, now: Date): DuePass[] {
  if (rule.deleteAfterDays === undefined) return [];
  return [{ rule, action: 'Deleted', stage: 'LIVE', cutoff: cutoffOf(now, rule.deleteAfterDays), runAt: now.toISOString() }];
}

/** The sort-key range of the markers due in a pass: every base time up to and including the cutoff. */
export function dueRange(pass: DuePass): [string, string] {
  return ['0', `${pass.cutoff}~`];
}
