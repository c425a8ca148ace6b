import type { Dependencies } from '#core/dependencies.ts';
import { readPayload, type PayloadItem } from '#core/store/entities/payload.ts';
import type { ProductionItem } from '#core/store/entities/production.ts';
import { keys, type ListKey } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { PRODUCTION_DOCUMENTS_MAX } from '#shared/contract/entities/productions.ts';

/** A production asks for more than it may hold: the request must be narrowed. */
export class TooManyDocumentsError extends Error {
  override readonly name = 'TooManyDocumentsError';
}

const digits = (value: string) => value.replace(/\D/g, '');

/**
 * The recordings a production holds, oldest first (then by reference), so a resumed run numbers them the same: per
 * custodian one Query on the payloads' device-user index over the period (without custodians, a client copy, one
 * Query on the tenant's time index over the period), never a Scan. Kept: Processed recordings of the asked types that
 * the requester may see (their payload types and groups, captured with the request), naming one of the counterparty numbers
 * when some are asked for, and not disposed of by retention.
 */
export async function selectRecordings(deps: Pick<Dependencies, 'table'>, production: ProductionItem): Promise<PayloadItem[]> {
  const { client, criteria } = production;
  const asked = new Set<string>(criteria.payload_types ?? production.scope_payload_types);
  const allowedTypes = new Set(production.scope_payload_types);
  const groups = production.scope_groups === undefined ? undefined : new Set(production.scope_groups);
  const numbers = (criteria.counterparty_numbers ?? []).map(digits).filter((number) => number.length > 0);
  const lists: ListKey[] =
    criteria.custodians === undefined || criteria.custodians.length === 0
      ? [keys.payload.list(client)]
      : [...new Set(criteria.custodians)].map((custodian) => keys.payload.listByDeviceUser(client, custodian));
  const chosen = new Map<string, PayloadItem>();
  for (const list of lists) {
    for await (const page of eachPage(deps.table, { ...list, sort: { between: [criteria.from, `${criteria.to}~`] } })) {
      for (const item of page) {
        if (item.retention_state !== undefined) continue;
        const payload = readPayload(item);
        if (payload.payload_state !== 'Processed') continue;
        if (!asked.has(payload.payload_type) || !allowedTypes.has(payload.payload_type)) continue;
        if (groups !== undefined && !groups.has(payload.group ?? '')) continue;
        if (numbers.length > 0 && !numbersOf(payload).some((named) => numbers.includes(named))) continue;
        chosen.set(payload.payload_reference, payload);
        if (chosen.size > PRODUCTION_DOCUMENTS_MAX) {
          throw new TooManyDocumentsError(`The production would hold more than ${PRODUCTION_DOCUMENTS_MAX} documents: narrow its period, custodians or types`);
        }
      }
    }
  }
  return [...chosen.values()].sort((a, b) => (a.payload_time ?? '').localeCompare(b.payload_time ?? '') || a.payload_reference.localeCompare(b.payload_reference));
}

/** The numbers a recording names, as digits (the payloads list's phone-number filter reads them the same way). */
function numbersOf(payload: PayloadItem): string[] {
  return (payload.all_numbers ?? payload.second_party_numbers ?? '').split(',').map(digits).filter((entry) => entry.length > 0);
}
