import type { ItemKey } from '../../ports/table-store.ts';
import { ENTITY, list, part, referenceList, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';

/**
 * Transfers (lambdas/transfers): a tenant's transfer configurations and the transfers (runs) made from them. Both
 * live in per-tenant partitions, so every list is one Query in one tenant.
 */
export const transfersKeys = {
  /** A transfer configuration, by its reference; the list reads the tenant's partition in reference order. */
  transferConfig: {
    item: (client: string, configReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}TRANSFER_CONFIGS`,
      sk: `CONFIG#${part(configReference)}`,
      entity: ENTITY.transferConfig,
    }),
    key: (client: string, configReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}TRANSFER_CONFIGS`,
      sk: `CONFIG#${part(configReference)}`,
    }),
    /** The tenant's configurations, or those whose reference starts with `startsWith`. */
    list: (client: string, startsWith?: string): ListKey => referenceList(`${tenantPrefix(client)}TRANSFER_CONFIGS`, 'CONFIG#', startsWith),
  },
  /**
   * A transfer (one run of a configuration), by its ULID. ULIDs sort by their creation time, so the partition read
   * in descending order is newest first, and a creation-time range is a sort-key range of ULID bounds.
   */
  transfer: {
    item: (client: string, transferId: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}TRANSFERS`,
      sk: `TRANSFER#${part(transferId)}`,
      entity: ENTITY.transfer,
    }),
    key: (client: string, transferId: string): ItemKey => ({ pk: `${tenantPrefix(client)}TRANSFERS`, sk: `TRANSFER#${part(transferId)}` }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}TRANSFERS`),
  },
  /**
   * One file of a transfer, in the transfer's own partition, so a transfer of thousands of recordings is never one
   * item and its files read page by page. Sort key `FILE#<order>#<name>`: order `1` for what the transfer carries
   * (a recording, by payload reference; a report), `9` for the manifests written last, so the list reads in delivery
   * order. Keyed by name, a selection repeated after a crash finds the file it already wrote instead of adding one.
   */
  transferFile: {
    item: (client: string, transferId: string, order: TransferFileOrder, name: string): ItemKeys => ({
      ...transfersKeys.transferFile.key(client, transferId, order, name),
      entity: ENTITY.transferFile,
    }),
    key: (client: string, transferId: string, order: TransferFileOrder, name: string): ItemKey => ({
      pk: transferPartition(client, transferId),
      sk: `FILE#${order}#${part(name)}`,
    }),
    /** The transfer's files in delivery order (`sort` narrows to one order: `FILE#1#` the carried files). */
    list: (client: string, transferId: string, order?: TransferFileOrder): ListKey => ({
      partition: transferPartition(client, transferId),
      sort: { beginsWith: order === undefined ? 'FILE#' : `FILE#${order}#` },
    }),
  },
  /**
   * A record a Vantage transfer reports on (its metadata, not its media), in the transfer's partition under
   * `REC#<payload reference>`: the report is written by reading these page by page.
   */
  transferRecord: {
    item: (client: string, transferId: string, payloadReference: string): ItemKeys => ({
      pk: transferPartition(client, transferId),
      sk: `REC#${part(payloadReference)}`,
      entity: ENTITY.transferRecord,
    }),
    list: (client: string, transferId: string): ListKey => ({ partition: transferPartition(client, transferId), sort: { beginsWith: 'REC#' } }),
  },
  /**
   * Where a configuration's last Succeeded transfer stopped (its `report_to`): the next run carries what was processed
   * after it. One small item per configuration, so the job reads it instead of walking the transfers.
   */
  transferWatermark: {
    item: (client: string, configReference: string): ItemKeys => ({
      ...transfersKeys.transferWatermark.key(client, configReference),
      entity: ENTITY.transferWatermark,
    }),
    key: (client: string, configReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}TRANSFER_WATERMARKS`,
      sk: `CONFIG#${part(configReference)}`,
    }),
  },
};

/** `1`: a file the transfer carries (recording or report); `9`: a manifest, delivered last. */
export type TransferFileOrder = '1' | '9';

const transferPartition = (client: string, transferId: string) => `${tenantPrefix(client)}TRANSFER#${part(transferId)}`;
