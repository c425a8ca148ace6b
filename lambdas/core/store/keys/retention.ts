import type { ItemKey } from '../../ports/table-store.ts';
import { ENTITY, list, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';

/**
 * Retention and legal holds (lambdas/account-data). The retention policy is one account setting (`RETENTION`, in the
 * account partition beside the defaults and the migration switches), so processing reads it with one GetItem. Legal
 * holds share one partition per tenant, sort key `HOLD#<target_type>#<target>`: a target has at most one hold item
 * (placed, released, placed again), the tenant's holds are one Query, and one type's holds a prefix of it. A tenant
 * has a handful of holds at a time (they name people in litigation), so one partition is no hot spot.
 */
export const retentionKeys = {
  retentionPolicy: {
    key: (client: string): ItemKey => ({ pk: `${tenantPrefix(client)}ACCOUNT`, sk: 'SETTING#RETENTION' }),
  },
  legalHold: {
    item: (client: string, targetType: string, target: string): ItemKeys => ({
      ...retentionKeys.legalHold.key(client, targetType, target),
      entity: ENTITY.legalHold,
    }),
    key: (client: string, targetType: string, target: string): ItemKey => ({
      pk: `${tenantPrefix(client)}LEGAL_HOLDS`,
      sk: `HOLD#${part(targetType)}#${part(target)}`,
    }),
    /** The tenant's holds, or those of one target type. */
    list: (client: string, targetType?: string): ListKey =>
      targetType === undefined
        ? list(undefined, `${tenantPrefix(client)}LEGAL_HOLDS`)
        : { partition: `${tenantPrefix(client)}LEGAL_HOLDS`, sort: { beginsWith: `HOLD#${part(targetType)}#` } },
  },
};
