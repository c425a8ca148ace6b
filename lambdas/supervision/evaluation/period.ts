import type { Dependencies } from '#core/dependencies.ts';
import { readPayload, type PayloadItem } from '#core/store/entities/payload.ts';
import { keys } from '#core/store/keys.ts';
import type { QuerySpec, TableItem } from '#core/ports/table-store.ts';
import { isoOf } from '#core/store/time-range.ts';
import { ValidationError } from '#core/errors.ts';

/** Recordings read per Query page when a preview or an apply walks a period. */
export const PERIOD_PAGE = 100;

/** The period as ISO bounds (a `to` day includes its whole day); a `from` after `to` is a 400 naming the body. */
export function periodOf(period: { from: string; to: string }): { from: string; to: string } {
  const from = isoOf(period.from, 'start');
  const to = isoOf(period.to, 'end');
  if (from > to) throw new ValidationError(['body.from: Must not be after to']);
  return { from, to };
}

/** The tenant's recordings of the period by recording time: one Query on the tenant's time index, never a Scan. */
export function periodQuery(tenant: string, period: { from: string; to: string }): QuerySpec {
  // `~` sorts after `<iso>#<reference>`, so the last millisecond's recordings are in.
  return { ...keys.payload.list(tenant), sort: { between: [period.from, `${period.to}~`] } };
}

/** The Processed recordings of a page (only they have a processed object and their final facts). */
export function processedOf(items: readonly TableItem[]): PayloadItem[] {
  return items.filter((item) => item.payload_state === 'Processed').map(readPayload);
}

export type PeriodDependencies = Pick<Dependencies, 'table' | 'blobs' | 'keys' | 'clock'>;
