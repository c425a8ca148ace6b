import type { MigrationErrorType, MigrationSuccessType, MigrationWarningType } from '#shared/constants/account.ts';
import type { ExportRowKind, ParsedRow } from '../format/index.ts';

/** The entity a row is about (what the migration's per-entity counters count). */
export type MigrationEntity = 'Device' | 'DeviceUser' | 'Group' | 'Payload';

export const ENTITY_OF_KIND: Record<ExportRowKind, MigrationEntity> = {
  group: 'Group',
  device_user: 'DeviceUser',
  device: 'Device',
  recording: 'Payload',
};

/**
 * The one result of one row, with a type of the spec's catalogue (point 4). `isNewOrUpdated` says the row changed
 * something on the platform (the migration's new-or-updated counters). `entity` is absent only for a row whose kind
 * could not be read (bad JSON, unknown kind, a line past the cap, or a file that is not an export).
 */
export type RowResult = { row: number; entity?: MigrationEntity; reference?: string; message?: string; isNewOrUpdated: boolean } & (
  | { kind: 'success'; type: MigrationSuccessType }
  | { kind: 'warning'; type: MigrationWarningType }
  | { kind: 'error'; type: MigrationErrorType }
);

/** The error result of a row the reader refused (its problems, one `path: message` each, joined by `; `). */
export function resultOfParseFailure(parsed: Extract<ParsedRow, { ok: false }>): RowResult {
  return {
    row: parsed.row,
    kind: 'error',
    type: parsed.type,
    ...(parsed.kind === undefined ? {} : { entity: ENTITY_OF_KIND[parsed.kind] }),
    ...(parsed.reference === undefined ? {} : { reference: parsed.reference }),
    message: parsed.problems.join('; '),
    isNewOrUpdated: false,
  };
}
