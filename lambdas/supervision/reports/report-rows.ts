import { SUPERVISION_DISPOSITIONS, type SupervisionDisposition } from '#shared/constants/supervision.ts';
import type { SupervisionReportResponse } from '#shared/contract/entities/supervision.ts';
import type { Actor } from '#shared/contract/entities/actor.ts';
import type { SupervisionItemStored } from '#core/store/entities/supervision-item.ts';

/**
 * The three reports as pure functions of the items in scope (reports.ts reads them): every figure is counted from the
 * items themselves, so a report and the queue never disagree.
 */

type Outstanding = Extract<SupervisionReportResponse, { report: 'outstanding' }>;
type Outcomes = Extract<SupervisionReportResponse, { report: 'outcomes' }>;
type Reviewers = Extract<SupervisionReportResponse, { report: 'reviewers' }>;
type OutstandingRow = Outstanding['rows'][number];
type OutcomeRow = Outcomes['policies'][number];

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Whole days since raised, in the bucket the report shows. */
export function ageBucket(raisedAt: string, now: Date): '0-7' | '8-30' | '31+' {
  const days = Math.floor((now.getTime() - Date.parse(raisedAt)) / DAY_MS);
  if (days <= 7) return '0-7';
  return days <= 30 ? '8-30' : '31+';
}

/**
 * Outstanding work per supervised person and policy: an item counts once in the row of each policy that hit it (an
 * item two policies hit is outstanding work under both), by state, overdue, age and oldest raising.
 */
export function outstandingReport(items: readonly SupervisionItemStored[], now: Date): Outstanding {
  const rows = new Map<string, OutstandingRow>();
  const nowIso = now.toISOString();
  for (const item of items) {
    if (item.state === 'Closed') continue;
    for (const policy of item.policy_references) {
      const key = JSON.stringify([item.device_user_reference ?? '', policy]);
      const row = rows.get(key) ?? {
        ...(item.device_user_reference === undefined ? {} : { device_user_reference: item.device_user_reference }),
        ...(item.device_user_name === undefined ? {} : { device_user_name: item.device_user_name }),
        policy_reference: policy,
        open: 0,
        claimed: 0,
        escalated: 0,
        overdue: 0,
        age_days: { '0-7': 0, '8-30': 0, '31+': 0 },
      };
      if (item.state === 'Open') row.open += 1;
      if (item.state === 'Claimed') row.claimed += 1;
      if (item.state === 'Escalated') row.escalated += 1;
      if (item.due_at < nowIso) row.overdue += 1;
      row.age_days[ageBucket(item.raised_at, now)] += 1;
      if (row.oldest_raised_at === undefined || item.raised_at < row.oldest_raised_at) row.oldest_raised_at = item.raised_at;
      rows.set(key, row);
    }
  }
  return { report: 'outstanding', rows: [...rows.values()].sort((a, b) => (a.device_user_name ?? a.device_user_reference ?? '').localeCompare(b.device_user_name ?? b.device_user_reference ?? '') || a.policy_reference.localeCompare(b.policy_reference)) };
}

function emptyDispositions(): Record<SupervisionDisposition, number> {
  return Object.fromEntries(SUPERVISION_DISPOSITIONS.map((disposition) => [disposition, 0])) as Record<SupervisionDisposition, number>;
}

function emptyOutcome(policy: string): OutcomeRow {
  return { policy_reference: policy, hits: 0, closed: 0, dispositions: emptyDispositions() };
}

function tally(row: OutcomeRow, item: SupervisionItemStored): void {
  row.hits += 1;
  if (item.state !== 'Closed' || item.disposition === undefined) return;
  row.closed += 1;
  row.dispositions[item.disposition] += 1;
}

function withShare<T extends OutcomeRow>(row: T): T {
  return row.closed === 0 ? row : { ...row, false_positive_share: row.dispositions['False positive'] / row.closed };
}

/**
 * Outcomes per policy and per (policy, term): `hits` is the items the policy (or term) hit, `closed` those of them
 * closed, by disposition; the false-positive share is False positive over closed. A sampling hit has no term.
 */
export function outcomesReport(items: readonly SupervisionItemStored[]): Outcomes {
  const policies = new Map<string, OutcomeRow>();
  const terms = new Map<string, OutcomeRow & { term: string }>();
  for (const item of items) {
    const seenPolicies = new Set<string>();
    const seenTerms = new Set<string>();
    for (const hit of item.hits) {
      if (!seenPolicies.has(hit.policy_reference)) {
        seenPolicies.add(hit.policy_reference);
        const row = policies.get(hit.policy_reference) ?? emptyOutcome(hit.policy_reference);
        tally(row, item);
        policies.set(hit.policy_reference, row);
      }
      if (hit.term === undefined) continue;
      const key = JSON.stringify([hit.policy_reference, hit.term]);
      if (seenTerms.has(key)) continue;
      seenTerms.add(key);
      const row = terms.get(key) ?? { ...emptyOutcome(hit.policy_reference), term: hit.term };
      tally(row, item);
      terms.set(key, row);
    }
  }
  const byPolicy = (a: OutcomeRow, b: OutcomeRow) => a.policy_reference.localeCompare(b.policy_reference);
  return {
    report: 'outcomes',
    policies: [...policies.values()].sort(byPolicy).map(withShare),
    terms: [...terms.values()].sort((a, b) => byPolicy(a, b) || a.term.localeCompare(b.term)).map(withShare),
  };
}

/** The median of the numbers (the mean of the middle two when there is an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Per closing reviewer: items closed and the median hours from raising to closing. */
export function reviewersReport(items: readonly SupervisionItemStored[]): Reviewers {
  const byReviewer = new Map<string, { actor: Actor | undefined; hours: number[] }>();
  for (const item of items) {
    if (item.state !== 'Closed' || item.closed_by === undefined || item.closed_at === undefined) continue;
    const entry = byReviewer.get(item.closed_by) ?? { actor: item.closed_by_actor, hours: [] };
    entry.hours.push(Math.max(0, (Date.parse(item.closed_at) - Date.parse(item.raised_at)) / HOUR_MS));
    byReviewer.set(item.closed_by, entry);
  }
  const rows = [...byReviewer.entries()].map(([reviewer, { actor, hours }]) => ({
    reviewer,
    ...(actor === undefined ? {} : { reviewer_actor: actor }),
    closed: hours.length,
    median_hours_to_close: Math.round(median(hours) * 100) / 100,
  }));
  return { report: 'reviewers', rows: rows.sort((a, b) => b.closed - a.closed || a.reviewer.localeCompare(b.reviewer)) };
}
