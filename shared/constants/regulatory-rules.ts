import * as z from 'zod';
import { RETENTION_RECORD_TYPES, type RetentionRecordType } from './account.ts';
import { PAYLOAD_TYPES, type PayloadType } from './payloads.ts';

/**
 * The record-keeping rules a tenant may say it is under (several at once, or none). Each sets a regulatory floor: the
 * shortest retention period the tenant may set for the records the rule covers. docs/decisions.md "Regulatory floor"
 * says what each rule means per record type and why. Years are counted in days with their leap days, as the retention
 * defaults count them (3 years = 1,096 days).
 */
export const REGULATORY_RULES = ['SEC_17a_4', 'FINRA_4511', 'MIFID_II'] as const;
export const RegulatoryRule = z.enum(REGULATORY_RULES);
export type RegulatoryRule = z.infer<typeof RegulatoryRule>;

/** How a rule is named to people (in refusals and on the retention editor). */
export const REGULATORY_RULE_NAMES: Record<RegulatoryRule, string> = {
  SEC_17a_4: 'SEC 17a-4',
  FINRA_4511: 'FINRA 4511',
  MIFID_II: 'MiFID II',
};

/** SEC 17a-4(b)(4): originals of communications relating to the business "not less than three years". */
const THREE_YEARS = 1096;
/** MiFID II Art 16(7): records of telephone conversations and electronic communications "for a period of five years" (up to seven where the authority asks: not a floor a firm can know in advance). */
const FIVE_YEARS = 1827;
/** FINRA 4511(b): records with no period specified under FINRA rules or SEA 17a-4 "for a period of at least six years". */
const SIX_YEARS = 2192;

/** The payload types that are communications (Diagnostics is the phone's own health, not a communication). */
const COMMUNICATION_PAYLOADS = PAYLOAD_TYPES.filter((type) => type !== 'Diagnostics');

/** What a rule's floor covers: record types (not PayloadData) and payload types, with their minimum in days. */
export interface RuleFloor {
  records: Partial<Record<Exclude<RetentionRecordType, 'PayloadData'>, number>>;
  payloads: Partial<Record<PayloadType, number>>;
  /** What the floor's records are, in the rule's words, for the refusal ("keeps communications at least …"). */
  covers: string;
}

const communications = (days: number) => Object.fromEntries(COMMUNICATION_PAYLOADS.map((type) => [type, days])) as Partial<Record<PayloadType, number>>;

/**
 * Per rule, the minimum per record type. Communications are the recordings (every payload type but Diagnostics), the
 * phones' ledger entries that account for them (the evidence that the recordings are complete) and migrated legacy
 * recordings. FINRA 4511(a) makes a member keep its records as 17a-4 says, so communications keep 17a-4's three
 * years under it; its own six years apply to the supervisory review records, which no other period covers.
 */
export const REGULATORY_FLOORS: Record<RegulatoryRule, RuleFloor[]> = {
  SEC_17a_4: [
    {
      covers: 'communications',
      records: { CaptureLedgerData: THREE_YEARS, LegacyMigrationData: THREE_YEARS },
      payloads: communications(THREE_YEARS),
    },
  ],
  FINRA_4511: [
    {
      covers: 'communications',
      records: { CaptureLedgerData: THREE_YEARS, LegacyMigrationData: THREE_YEARS },
      payloads: communications(THREE_YEARS),
    },
    { covers: 'supervisory reviews', records: { SupervisionData: SIX_YEARS }, payloads: {} },
  ],
  MIFID_II: [
    {
      covers: 'communications',
      records: { CaptureLedgerData: FIVE_YEARS, LegacyMigrationData: FIVE_YEARS },
      payloads: communications(FIVE_YEARS),
    },
  ],
};

/** The strictest floor of the chosen rules for one record type (or payload type): its days, the rule and what it covers. */
export interface Floor {
  days: number;
  rule: RegulatoryRule;
  covers: string;
}

function strictest(rules: readonly RegulatoryRule[], daysOf: (floor: RuleFloor) => number | undefined): Floor | undefined {
  let found: Floor | undefined;
  for (const rule of rules) {
    for (const floor of REGULATORY_FLOORS[rule]) {
      const days = daysOf(floor);
      if (days !== undefined && (found === undefined || days > found.days)) found = { days, rule, covers: floor.covers };
    }
  }
  return found;
}

export const recordFloor = (rules: readonly RegulatoryRule[], type: Exclude<RetentionRecordType, 'PayloadData'>) =>
  strictest(rules, (floor) => floor.records[type]);
export const payloadFloor = (rules: readonly RegulatoryRule[], type: PayloadType) => strictest(rules, (floor) => floor.payloads[type]);

interface Periods {
  delete_after_days?: number | undefined;
  destroy_after_days?: number | undefined;
}

/** The policy's shape as the floor reads it (the contract's RetentionPolicyRequest satisfies it). */
export type FlooredPolicy = Partial<Record<Exclude<RetentionRecordType, 'PayloadData'>, Periods | undefined>> & {
  PayloadData?: readonly (Periods & { payload_type: PayloadType })[] | undefined;
};

/**
 * The period a record first leaves the firm's hands: its deletion when set, else its destruction. Neither set means
 * kept without end, which no floor refuses.
 */
function firstPeriod(periods: Periods): { field: 'delete_after_days' | 'destroy_after_days'; days: number } | undefined {
  if (periods.delete_after_days !== undefined) return { field: 'delete_after_days', days: periods.delete_after_days };
  if (periods.destroy_after_days !== undefined) return { field: 'destroy_after_days', days: periods.destroy_after_days };
  return undefined;
}

const refusal = (path: string, field: string, floor: Floor) =>
  `${path}.${field}: ${REGULATORY_RULE_NAMES[floor.rule]} keeps ${floor.covers} at least ${floor.days.toLocaleString('en-US')} days`;

/**
 * One `path: message` line per record type (or payload entry) whose period is shorter than the strictest chosen
 * rule's minimum, naming the rule. Only the types the policy lists are judged: a type left out keeps its default,
 * which is above every floor.
 */
export function regulatoryFloorProblems(policy: FlooredPolicy, rules: readonly RegulatoryRule[]): string[] {
  const problems: string[] = [];
  for (const type of RETENTION_RECORD_TYPES) {
    if (type === 'PayloadData') continue;
    const periods = policy[type];
    const floor = recordFloor(rules, type);
    const first = periods === undefined ? undefined : firstPeriod(periods);
    if (floor !== undefined && first !== undefined && first.days < floor.days) problems.push(refusal(`body.${type}`, first.field, floor));
  }
  for (const [index, entry] of (policy.PayloadData ?? []).entries()) {
    const floor = payloadFloor(rules, entry.payload_type);
    const first = firstPeriod(entry);
    if (floor !== undefined && first !== undefined && first.days < floor.days) problems.push(refusal(`body.PayloadData.${index}`, first.field, floor));
  }
  return problems;
}
