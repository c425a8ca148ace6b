import { LEDGER_PAYLOAD_TYPES, type LedgerPayloadType } from '#shared/constants/completeness.ts';

const LEDGER_TYPES = new Set<string>(LEDGER_PAYLOAD_TYPES);

/**
 * The ledger payload types a caller's payload types open: a ledger entry of a type is read with that type's permission
 * (an entry `Call` with `Call`, whatever recording captured it). Empty: the caller sees no entry and no count.
 */
export function ledgerTypesOf(types: readonly string[]): LedgerPayloadType[] {
  return LEDGER_PAYLOAD_TYPES.filter((type) => types.includes(type));
}

/** The ledger type a recording's payload type is counted and filtered under: an aborted call is a call. */
export function ledgerTypeOf(payloadType: unknown): LedgerPayloadType | undefined {
  if (payloadType === 'AbortedCall') return 'Call';
  return typeof payloadType === 'string' && LEDGER_TYPES.has(payloadType) ? (payloadType as LedgerPayloadType) : undefined;
}
