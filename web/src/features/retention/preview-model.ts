import type { DueCount, RetentionPreview } from '#shared/contract/entities/account-data.ts';

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
    }))
    .filter((row) => row.proposed.deleted.count + row.proposed.destroyed.count + row.current.deleted.count + row.current.destroyed.count > 0);
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
