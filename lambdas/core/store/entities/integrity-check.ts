import * as z from 'zod';
import { IntegrityCheck } from '#shared/contract/entities/integrity.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix } from '../key-parts.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';
import { payloadPartition } from './payload.ts';
import { readItem } from './read-item.ts';

/** The tenant's fixity partition: its cycle cursor (`CYCLE`) and one `CHECK#<id>` item per run (ids sort by time). */
const integrityPartition = (client: string) => `${tenantPrefix(client)}INTEGRITY`;
const CHECK = 'CHECK#';
/** Entity tags of the fixity items (key-parts.ts ENTITY). */
export const INTEGRITY_ENTITY = { check: ENTITY.integrityCheck, cycle: ENTITY.fixityCycle, objectMark: ENTITY.fixityObjectMark } as const;

export const integrityKeys = {
  cycle: (client: string): ItemKey => ({ pk: integrityPartition(client), sk: 'CYCLE' }),
  check: (client: string, checkId: string): ItemKey => ({ pk: integrityPartition(client), sk: `${CHECK}${part(checkId)}` }),
  /** The runs of a tenant, newest first with `descending`. */
  checks: (client: string) => ({ partition: integrityPartition(client), sort: { beginsWith: CHECK } }),
  /**
   * A recording's object as the first check saw it (version and size), in the payload's own partition so it goes with
   * the payload: processing does not keep the processed object's VersionId, so the first check records it.
   */
  objectMark: (client: string, payloadReference: string): ItemKey => ({ pk: payloadPartition(client, payloadReference), sk: 'FIXITY' }),
};

/** Where the tenant's current cycle of full reads stands. */
export const FixityCycle = z.object({
  cycle_started_at: z.string(),
  /** The byProcessedAt key to read on from; absent at the cycle's start. */
  position: z.record(z.string(), z.string()).optional(),
  objects_read: z.int().min(0),
  /** Set when the cycle read the last recording: the next cycle starts `cycle_days` after `cycle_started_at`. */
  completed_at: z.string().optional(),
});
export type FixityCycle = z.infer<typeof FixityCycle>;

export const ObjectMark = z.object({ payload_reference: z.string(), version: z.string(), size: z.int().min(0), first_checked_at: z.string() });
export type ObjectMark = z.infer<typeof ObjectMark>;

const cycleSchema = /* @__PURE__ */ onFirstUse(() => FixityCycle.extend({ position: z.string().optional() }));

export function readFixityCycle(item: TableItem): FixityCycle {
  const stored = readItem('FixityCycle', cycleSchema(), item);
  const { position, ...rest } = stored;
  return { ...rest, ...(position === undefined ? {} : { position: JSON.parse(position) as Record<string, string> }) };
}

export function fixityCycleToItem(client: string, cycle: FixityCycle): TableItem {
  const { position, ...rest } = cycle;
  return { ...integrityKeys.cycle(client), entity: INTEGRITY_ENTITY.cycle, client, ...rest, ...(position === undefined ? {} : { position: JSON.stringify(position) }) };
}

export const readIntegrityCheck = (item: TableItem): IntegrityCheck => readItem('IntegrityCheck', IntegrityCheck, item);
export const integrityCheckToItem = (check: IntegrityCheck): TableItem => ({ ...integrityKeys.check(check.client, check.check_id), entity: INTEGRITY_ENTITY.check, ...check });

export const readObjectMark = (item: TableItem): ObjectMark => readItem('ObjectMark', ObjectMark, item);
export const objectMarkToItem = (client: string, mark: ObjectMark): TableItem => ({ ...integrityKeys.objectMark(client, mark.payload_reference), entity: INTEGRITY_ENTITY.objectMark, client, ...mark });

export const integrityCheckModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.integrityCheck,
  title: 'Integrity check (one run of the `fixity` job for one tenant: the spec\'s IntegrityCheck)',
  module: 'integrity-check.ts',
  indexes: {},
  items: [{ example: () => integrityKeys.check(EXAMPLE_CLIENT, '<check_id>') }],
  accessPatterns: [
    {
      name: 'The tenant\'s latest fixity runs, newest first',
      serves: '`GET integrity` (the audit screen) and `GET /clients/{client}/integrity` (the internal console): descending, 31 a page',
      builders: ['keys.integrity.checks'],
      example: () => integrityKeys.checks(EXAMPLE_CLIENT),
    },
  ],
}));

export const fixityCycleModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.fixityCycle,
  title: 'Fixity cycle (where the tenant\'s cycle of full reads stands: its start, position and count)',
  module: 'integrity-check.ts',
  indexes: {},
  items: [{ example: () => integrityKeys.cycle(EXAMPLE_CLIENT) }],
  accessPatterns: [
    {
      name: 'The tenant\'s fixity cursor',
      serves: 'the `fixity` job, at its start and after each recording it reads in full',
      builders: ['keys.integrity.cycle'],
      example: () => integrityKeys.cycle(EXAMPLE_CLIENT),
    },
  ],
}));

export const fixityObjectMarkModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.fixityObjectMark,
  title: 'Fixity object mark (a recording\'s stored object as the first check saw it: version and size)',
  module: 'integrity-check.ts',
  indexes: {},
  items: [{ when: 'in the partition of the payload it marks', example: () => integrityKeys.objectMark(EXAMPLE_CLIENT, '<payload_reference>') }],
  accessPatterns: [
    {
      name: 'A recording\'s object mark',
      serves: 'the `fixity` job, for every Processed recording it checks',
      builders: ['keys.integrity.objectMark'],
      example: () => integrityKeys.objectMark(EXAMPLE_CLIENT, '<payload_reference>'),
    },
  ],
}));
