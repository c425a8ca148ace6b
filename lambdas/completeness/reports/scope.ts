import { LEDGER_PAYLOAD_TYPES, type LedgerPayloadType } from '#shared/constants/completeness.ts';

/**
 * The ledger payload types a caller's payload types open: a ledger entry of a type is read with that type's permission
 * (an entry `Call` with `Call`, whatever recording captured it). Empty: the caller sees no entry and no count.
 */
export function ledgerTypesOf(types: readonly string[]): LedgerPayloadType[] {
  return LEDGER_PAYLOAD_TYPES.filter((type) => types.includes(type));
}
