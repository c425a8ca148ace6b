import type { DueCount, KeptCount, RetentionKeptReason, RetentionPreview } from '#shared/contract/entities/account-data.ts';

/**
 * Reading a retention preview: what the proposed policy makes due at the next run beyond what the current policy
 * already would, in totals a person can weigh before saving.
 */

/**
 * From this many extra records due (deleted plus destroyed) the save asks for an explicit confirmation. A hundred is
 * more than a slip of one row would usually touch, and few enough that a real purge never passes unconfirmed.
 */
export const LARGE_PREVIEW = 100;

/** A count, or a lower bound when the server stopped counting at its cap. */
export interface Tally {
  count: number;
  /** The true number is larger (a count hit the cap). */
  more: boolean;
}

const add = (a: Tally, b: DueCount): Tally => ({ count: a.count + b.count, more: a.more || b.more });
const ZERO: Tally = { count: 0, more: false };

/** Records due under each policy, and the extra ones the proposal adds (never negative: a longer period adds none). */
export interface PreviewTotals {
  current: { deleted: Tally; destroyed: Tally };
  proposed: { deleted: Tally; destroyed: Tally };
  /** Due under the proposal but not under the current policy. */
  extra: { deleted: Tally; destroyed: Tally };
}

export interface PreviewRowView {
  key: string;
  recordType: string;
  payloadType?: string;
  current: { deleted: Tally; destroyed: Tally };
  proposed: { deleted: Tally; destroyed: Tally };
  extra: { deleted: Tally; destroyed: Tally };
  /** Due under the proposal but kept by the run, by reason. */
  kept: KeptCount[];
}

const extraOf = (current: DueCount, proposed: DueCount): Tally => ({
  count: Math.max(0, proposed.count - current.count),
  // A capped proposal over a count below it: the extra is at least the difference, maybe more.
  more: proposed.more && !(current.more && current.count === proposed.count),
});

/** One row per record type (or payload type) with its extra counts; rows where nothing changes are left out. */
export function previewRows(preview: RetentionPreview): PreviewRowView[] {
  return preview.rows
    .map((row) => ({
      key: `${row.record_type}:${row.payload_type ?? ''}`,
      recordType: row.record_type,
      ...(row.payload_type === undefined ? {} : { payloadType: row.payload_type }),
      current: row.current,
      proposed: row.proposed,
      extra: { deleted: extraOf(row.current.deleted, row.proposed.deleted), destroyed: extraOf(row.current.destroyed, row.proposed.destroyed) },
      kept: row.proposed.kept,
    }))
    .filter((row) => row.proposed.deleted.count + row.proposed.destroyed.count + row.current.deleted.count + row.current.destroyed.count + keptCount(row.kept).count > 0);
}

export function previewTotals(preview: RetentionPreview): PreviewTotals {
  const totals: PreviewTotals = {
    current: { deleted: ZERO, destroyed: ZERO },
    proposed: { deleted: ZERO, destroyed: ZERO },
    extra: { deleted: ZERO, destroyed: ZERO },
  };
  for (const row of preview.rows) {
    totals.current = { deleted: add(totals.current.deleted, row.current.deleted), destroyed: add(totals.current.destroyed, row.current.destroyed) };
    totals.proposed = { deleted: add(totals.proposed.deleted, row.proposed.deleted), destroyed: add(totals.proposed.destroyed, row.proposed.destroyed) };
    totals.extra = {
      deleted: add(totals.extra.deleted, extraOf(row.current.deleted, row.proposed.deleted)),
      destroyed: add(totals.extra.destroyed, extraOf(row.current.destroyed, row.proposed.destroyed)),
    };
  }
  return totals;
}

/** Does saving need an explicit "yes, I mean it"? When the proposal adds LARGE_PREVIEW or more records, or past the cap. */
export function needsConfirmation(totals: PreviewTotals): boolean {
  const extra = totals.extra.deleted.count + totals.extra.destroyed.count;
  return extra >= LARGE_PREVIEW || totals.extra.deleted.more || totals.extra.destroyed.more;
}

/** "1,204", or "more than 10,000" past the cap. */
export function tallyText(tally: Tally, format: (value: number) => string): string {
  return tally.more ? `more than ${format(tally.count)}` : format(tally.count);
}

/** Why the run keeps a due record, in words. */
export const KEPT_REASON_TEXT: Record<RetentionKeptReason, string> = {
  legal_hold: 'under a legal hold',
  object_lock: 'Object Lock retention still in force',
  requirements: 'receipts or transfers still required',
  in_use: 'still in use',
  not_settled: 'upload not settled (failed or quarantined)',
};

/** Every kept record of some rows, summed. */
export function keptCount(kept: readonly KeptCount[]): Tally {
  return kept.reduce<Tally>((all, one) => add(all, one), ZERO);
}

/** The proposal's kept records across every row, summed by reason and by what they are kept from. */
export function keptTotals(preview: RetentionPreview): KeptCount[] {
  const totals = new Map<string, KeptCount>();
  for (const row of preview.rows) {
    for (const kept of row.proposed.kept) {
      const id = `${kept.reason}:${kept.instead_of}`;
      const sum = totals.get(id);
      totals.set(id, sum === undefined ? { ...kept } : { ...sum, count: sum.count + kept.count, more: sum.more || kept.more });
    }
  }
  return [...totals.values()];
}

/** "2 not deleted: under a legal hold". */
export function keptText(kept: KeptCount, format: (value: number) => string): string {
  return `${tallyText(kept, format)} not ${kept.instead_of === 'Deleted' ? 'deleted' : 'destroyed'}: ${KEPT_REASON_TEXT[kept.reason]}`;
}
