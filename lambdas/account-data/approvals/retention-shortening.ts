import { RETENTION_RECORD_TYPES } from '#shared/constants/account.ts';
import { REGULATORY_RULE_NAMES } from '#shared/constants/regulatory-rules.ts';
import type { RetentionPolicyRequest } from '#shared/contract/entities/account-data.ts';
import { completePolicy } from '../retention/retention-defaults.ts';

interface Periods {
  delete_after_days?: number | undefined;
  destroy_after_days?: number | undefined;
}

const FIELDS = [
  ['delete_after_days', 'deleted'],
  ['destroy_after_days', 'destroyed'],
] as const;

const days = (count: number) => `${count.toLocaleString('en-US')} days`;

/**
 * One line per period the change makes shorter: a number of days lowered, or a period set where records were kept
 * without end. A longer period, or one removed (kept without end), shortens nothing.
 */
function shorterPeriods(label: string, before: Periods, after: Periods): string[] {
  const lines: string[] = [];
  for (const [field, verb] of FIELDS) {
    const was = before[field];
    const now = after[field];
    if (now === undefined || (was !== undefined && now >= was)) continue;
    lines.push(`${label}: ${verb} after ${days(now)} instead of ${was === undefined ? 'never' : days(was)}`);
  }
  return lines;
}

/**
 * What a retention policy change shortens, in words, one line each (none: it may apply at once): every record
 * type's and payload type's periods, as stored after the change (a type the request leaves out takes its default,
 * which may itself be shorter than what is stored), fewer receipts or transfers demanded of a recording, and every
 * regulatory rule it removes (a lower floor). `request` carries the rules as they will be stored
 * (withinRegulatoryFloor fills them).
 */
export function retentionShortening(current: RetentionPolicyRequest, request: RetentionPolicyRequest): string[] {
  const before = completePolicy(current);
  const after = completePolicy(request);
  const lines: string[] = [];
  for (const type of RETENTION_RECORD_TYPES) {
    if (type === 'PayloadData') continue;
    lines.push(...shorterPeriods(type, before[type] ?? {}, after[type] ?? {}));
  }
  const stored = new Map(before.PayloadData.map((entry) => [entry.payload_type, entry]));
  for (const entry of after.PayloadData) {
    const was = stored.get(entry.payload_type);
    lines.push(...shorterPeriods(`PayloadData ${entry.payload_type}`, was ?? {}, entry));
    // Fewer receipts or transfers demanded before deletion lets recordings go sooner, as a shorter period does.
    for (const field of ['required_receipts', 'required_transfers'] as const) {
      const before = was?.[field] ?? 0;
      const now = entry[field] ?? 0;
      if (now < before) lines.push(`PayloadData ${entry.payload_type}: ${field} ${now} instead of ${before}`);
    }
  }
  const kept = new Set(after.regulatory_rules);
  for (const rule of before.regulatory_rules) {
    if (!kept.has(rule)) lines.push(`regulatory_rules: ${REGULATORY_RULE_NAMES[rule]} removed (a lower regulatory floor)`);
  }
  return lines;
}
