import type { ItemKey } from '../../core/ports/table-store.ts';
import { ENTITY, tenantPrefix } from '../../core/store/key-parts.ts';
import { keys } from '../../core/store/keys.ts';

/**
 * Where an export's state lives: one item per export in the tenant's `ACTIVITY_EXPORTS` partition (`EXPORT#<id>`),
 * written when requested and updated by the job as it goes; the file itself sits in the processed bucket under the
 * tenant's `exports/activity/` prefix (the tenant first, as every object key).
 */
export const ACTIVITY_EXPORT_ENTITY = ENTITY.activityExport;

/** Its key, spelled by its entity module (lambdas/core/store/entities/activity-export.ts). */
export const activityExportKey = (client: string, exportId: string): ItemKey => keys.activityExport.key(client, exportId);

export const activityExportObjectKey = (client: string, exportId: string): string => {
  tenantPrefix(client);
  return `${client}/exports/activity/${encodeURIComponent(exportId)}.tar`;
};
