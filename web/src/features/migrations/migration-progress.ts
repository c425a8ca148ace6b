import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import { formatBytes, formatNumber } from '../../lib/format.ts';
import { COUNTER_ENTITIES } from './migration-labels.ts';

/** How far an import has read its file, as the bar and its words show it. */
export interface MigrationProgressView {
  /** 0-100 of the file's bytes; undefined until the job has read its first rows. */
  percent?: number;
  /** e.g. "1,200 rows read · 1.5 MB of 3 MB", or what the migration waits for. */
  words: string;
}

/** The bytes read of the file's size once the job has reported; before that, what the migration waits on. */
export function progressOf(migration: Pick<LegacyMigration, 'migration_state' | 'progress' | 'started_at'>): MigrationProgressView {
  const progress = migration.progress;
  if (progress === undefined) {
    if (migration.migration_state !== 'Pending') return { words: 'No rows read' };
    return { words: migration.started_at === undefined ? 'Waiting for the file and the start of its import' : 'Import starting' };
  }
  const percent = progress.bytes_total === 0 ? 100 : Math.min(100, Math.round((progress.bytes_read / progress.bytes_total) * 1000) / 10);
  const done = migration.migration_state === 'Pending' ? percent : 100;
  return {
    percent: done,
    words: `${formatNumber(progress.rows_read)} rows read · ${formatBytes(progress.bytes_read)} of ${formatBytes(progress.bytes_total)}`,
  };
}

/** One line of the counters: how many rows named the entity, and how many of them created or changed it. */
export interface CounterRow {
  label: string;
  total: number;
  newOrUpdated: number;
}

/** The job's counters per entity (`devices_total`, `devices_new_or_updated`…), every entity listed, missing ones as 0. */
export function counterRowsOf(counters: Record<string, number>): CounterRow[] {
  return COUNTER_ENTITIES.map(({ name, label }) => ({
    label,
    total: counters[`${name}_total`] ?? 0,
    newOrUpdated: counters[`${name}_new_or_updated`] ?? 0,
  }));
}

/** How many rows ended as each kind, from the summaries (one entry per type with its count). */
export function outcomeTotalsOf(migration: Pick<LegacyMigration, 'imported' | 'import_warnings' | 'import_errors'>) {
  const sum = (issues: readonly { count?: number }[]) => issues.reduce((total, issue) => total + (issue.count ?? 0), 0);
  return { success: sum(migration.imported), warning: sum(migration.import_warnings), error: sum(migration.import_errors) };
}

/** "3 errors · 5 warnings · 40 imported", the list's one-line summary of a migration's results. */
export function outcomeWordsOf(migration: Pick<LegacyMigration, 'imported' | 'import_warnings' | 'import_errors'>): string {
  const totals = outcomeTotalsOf(migration);
  const plural = (count: number, one: string, many: string) => `${formatNumber(count)} ${count === 1 ? one : many}`;
  return [plural(totals.error, 'error', 'errors'), plural(totals.warning, 'warning', 'warnings'), `${formatNumber(totals.success)} imported`].join(' · ');
}

/** An import with no word from its job for this long has stopped (its invocations last at most 5 minutes). */
const STALLED_AFTER_MS = 6 * 60 * 1000;

/** What the start button offers for a Pending migration: start it, resume a stalled import, or nothing while it runs. */
export function startOffer(migration: Pick<LegacyMigration, 'migration_state' | 'started_at' | 'progress'>, now: Date): 'start' | 'resume' | undefined {
  if (migration.migration_state !== 'Pending') return undefined;
  if (migration.started_at === undefined) return 'start';
  const lastWord = new Date(migration.progress?.updated_at ?? migration.started_at).getTime();
  return now.getTime() - lastWord > STALLED_AFTER_MS ? 'resume' : undefined;
}
