import type { Dependencies } from '#core/dependencies.ts';
import { readLedgerEntry, type LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import { keys } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';

/** The fields of a ledger entry a production carries: what the phone saw and what Verity matched it to. */
export const CUSTODIAN_LEDGER_FIELDS = [
  'device_user_reference',
  'device_reference',
  'entry_id',
  'payload_type',
  'direction',
  'phone_number',
  'thread_id',
  'start_time',
  'duration',
  'outcome',
  'payload_reference',
  'recording_duration',
  'is_intermittent',
  'reported_at',
  'outcome_at',
] as const satisfies ReadonlyArray<keyof LedgerEntryItem>;

export type CustodianLedgerEntry = Partial<Pick<LedgerEntryItem, (typeof CUSTODIAN_LEDGER_FIELDS)[number]>>;

/**
 * A device user's capture-ledger entries whose call or message started within [from, to], oldest first: the
 * evidence of what the phone saw beside what was recorded, exported with that person's recordings (a production of a
 * custodian). One Query on the device user's ledger index with the period as its key range; the Unexpected recordings
 * listed in the same partition are not ledger entries and are left out.
 */
export async function* custodianLedgerEntries(
  deps: Pick<Dependencies, 'table'>,
  client: string,
  deviceUserReference: string,
  period: { from: string; to: string },
): AsyncGenerator<CustodianLedgerEntry> {
  const list = keys.ledgerEntry.listByDeviceUser(client, deviceUserReference);
  // Sort keys are `<start_time>#<reference>`: '~' sorts after '#', so the upper bound takes every entry of `to`.
  for await (const page of eachPage(deps.table, { ...list, sort: { between: [period.from, `${period.to}~`] } })) {
    for (const item of page) {
      if (item.entity !== 'LedgerEntry') continue;
      const entry = readLedgerEntry(item);
      yield Object.fromEntries(CUSTODIAN_LEDGER_FIELDS.filter((field) => entry[field] !== undefined).map((field) => [field, entry[field]])) as CustodianLedgerEntry;
    }
  }
}
