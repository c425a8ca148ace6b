import type { LegalHold } from '#shared/contract/entities/account-data.ts';

/**
 * A legal hold's reference in `GET history/legal-hold/{reference}`: whom it holds, as `<target_type>~<target>` (one
 * hold per person, lambdas/account-data/legal-holds/legal-holds.ts `legalHoldHistoryReference`).
 */
export function legalHoldHistoryReference(hold: Pick<LegalHold, 'target_type' | 'target'>): string {
  return `${hold.target_type}~${hold.target}`;
}
