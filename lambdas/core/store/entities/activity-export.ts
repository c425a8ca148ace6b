import type { ItemKey } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix } from '../key-parts.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * An activity trail's export (lambdas/audit/export): one item per export in the tenant's `ACTIVITY_EXPORTS` partition
 * (`EXPORT#<id>`), written when requested (with its running-job marker) and updated by the job as it goes; the file
 * itself sits in the processed bucket under the tenant's `exports/activity/` prefix.
 */
const exportsPartition = (client: string) => `${tenantPrefix(client)}ACTIVITY_EXPORTS`;

export const activityExportKeys = {
  key: (client: string, exportId: string): ItemKey => ({ pk: exportsPartition(client), sk: `EXPORT#${part(exportId)}` }),
};

export const activityExportModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.activityExport,
  title: 'Activity trail export (a job writing one signed file of a trail\'s period)',
  module: 'activity-export.ts',
  indexes: {},
  items: [{ example: () => activityExportKeys.key(EXAMPLE_CLIENT, '<export_id>') }],
  accessPatterns: [
    {
      name: 'One export, its progress and its file\'s digest',
      serves: '`GET activities/exports/{export_id}`; the `activity-export` job; the `job-sweep` for an export whose job died',
      builders: ['keys.activityExport.key'],
      example: () => activityExportKeys.key(EXAMPLE_CLIENT, '<export_id>'),
    },
  ],
}));
