import type { MigrationErrorType, MigrationSuccessType, MigrationWarningType } from '#shared/constants/account.ts';
import type { MetricsBatch } from './metrics-batch.ts';
import type { MigrationEntity, RowResult } from './results.ts';
import type { RowImporterDependencies, RowImporterOptions } from './types.ts';

/** What every row's import reads: the ports, the tenant, who writes, when, and the tenant's switches. */
export interface ImportContext {
  deps: RowImporterDependencies;
  client: string;
  /** `updated_by` of everything the import writes. */
  actor: string;
  /** ISO instant of the import. */
  now: string;
  settings: RowImporterOptions['settings'];
  row: number;
  /** Where the import's stored recordings are counted (payload metrics, in batches). */
  metrics: MetricsBatch;
}

/** What a row's result is about, and what came of it: the entity, the result type and the entity's reference. */
export interface ResultOf<T> {
  entity: MigrationEntity;
  type: T;
  reference: string;
}

/** The one result of a row, typed by its kind. */
export const results = {
  success: (context: ImportContext, { entity, type, reference }: ResultOf<MigrationSuccessType>, isNewOrUpdated: boolean, message?: string): RowResult => ({
    row: context.row,
    kind: 'success',
    type,
    entity,
    reference,
    isNewOrUpdated,
    ...(message === undefined ? {} : { message }),
  }),
  warning: (context: ImportContext, { entity, type, reference }: ResultOf<MigrationWarningType>, message: string): RowResult => ({
    row: context.row,
    kind: 'warning',
    type,
    entity,
    reference,
    isNewOrUpdated: false,
    message,
  }),
  error: (context: ImportContext, { entity, type, reference }: ResultOf<MigrationErrorType>, message: string): RowResult => ({
    row: context.row,
    kind: 'error',
    type,
    entity,
    reference,
    isNewOrUpdated: false,
    message,
  }),
};

/** The fields of `after` whose values differ from `before` (compared as JSON: lists in order, absent ≠ present). */
export function changedFields<T extends object>(before: T, after: T, fields: ReadonlyArray<keyof T & string>): string[] {
  return fields.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}
