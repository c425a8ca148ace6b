import { MigrationErrorType, MigrationWarningType } from '#shared/constants/account.ts';
import type { MigrationResultKind, MigrationResultType } from '#shared/contract/entities/migrations.ts';

const ERRORS = new Set<string>(MigrationErrorType.options);
const WARNINGS = new Set<string>(MigrationWarningType.options);

/** The kind every result of a type has: the spec lists each type under errors, warnings or successes. */
export function kindOfType(type: MigrationResultType): MigrationResultKind {
  if (ERRORS.has(type)) return 'error';
  if (WARNINGS.has(type)) return 'warning';
  return 'success';
}
