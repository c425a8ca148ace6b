import { PAYLOAD_TYPES, type PayloadState, type PayloadType } from '#shared/constants/payloads.ts';
import { RECORDING_KINDS, type RecordingKind } from '../shared/kinds.ts';

/** The overview's period as the API's day range: the last `days` UTC days, today included. */
export function periodRange(days: number, now: Date): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  return { from: start.toISOString().slice(0, 10), to };
}

/** The states the overview counts: the usual path, then what needs someone's attention. */
export const COUNTED_STATES = ['Processed', 'Uploaded', 'Scanning', 'Failed', 'Quarantined', 'Deleted'] as const satisfies readonly PayloadState[];

/** One service card: its screen, its total and, for calls and messages, each type's share. */
export interface ServiceSummary {
  kind: Exclude<RecordingKind, 'all'>;
  total: number | undefined;
  parts: { type: PayloadType; count: number | undefined }[];
}

/** Per-type counts (in PAYLOAD_TYPES order) folded into the six screens' cards. */
export function serviceSummaries(typeCounts: readonly (number | undefined)[]): ServiceSummary[] {
  const countOf = (type: PayloadType) => typeCounts[PAYLOAD_TYPES.indexOf(type)];
  const kinds = ['calls', 'messages', 'interviews', 'photos', 'videos', 'diagnostics'] as const;
  return kinds.map((kind) => {
    const parts = RECORDING_KINDS[kind].types.map((type: PayloadType) => ({ type, count: countOf(type) }));
    const total = parts.some((part) => part.count === undefined) ? undefined : parts.reduce((sum, part) => sum + (part.count ?? 0), 0);
    return { kind, total, parts };
  });
}

/** Per-type totals of metric rows (one per device and day), in PAYLOAD_TYPES order: what the type counts read. */
export function typeTotals(rows: readonly { counts: Readonly<Record<string, number>> }[]): number[] {
  return PAYLOAD_TYPES.map((type) => rows.reduce((sum, row) => sum + (row.counts[type] ?? 0), 0));
}
