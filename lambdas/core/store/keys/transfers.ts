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
};
