import type { VersionedEntity } from '#shared/contract/entities/record-versions.ts';
import { jobActor } from '../../core/auth/actor.ts';
import type { TableItem, TransactOperation, WriteCondition } from '../../core/ports/table-store.ts';
import { unchangedItem } from '../../core/store/unchanged-item.ts';
import { versionWrites } from '../../audit/public.ts';
import type { ImportContext } from './context.ts';

/** The action of the import job's activity record of a row that changed a record Verity keeps versions of. */
export const IMPORT_ROW_ACTION = 'migrations:ImportRow';

/** The import job as an actor: `context.actor` is its reference (`job:migration:<reference>`). */
const importActor = (context: ImportContext) => jobActor(context.actor.replace(/^job:/, ''));

/**
 * What a row that changes an existing device user or device writes besides the record (docs/compliance.md): the
 * record as it was, kept as a version in the same transaction, and the import job's own activity record of the row
 * carrying the version's digest, so the trail's hash chain covers it. A row that changes nothing writes neither (the
 * importer answers NoChange… before writing), so importing a file again keeps no version.
 */
export function importVersionWrites(context: ImportContext, replaced: { entity: VersionedEntity; reference: string; stored: TableItem }): TransactOperation[] {
  const actor = importActor(context);
  const parameter = replaced.entity === 'device-user' ? 'device_user_reference' : 'device_reference';
  const entry = {
    user_id: actor.reference,
    actor,
    roles: [],
    action: IMPORT_ROW_ACTION,
    is_allowed: true,
    activity_time: context.now,
    parameters: { migration_reference: context.actor.replace(/^job:migration:/, ''), row: context.row, [parameter]: replaced.reference },
    is_client_app: false,
  };
  const record = { trail: 'user' as const, client: context.client, entry, requestId: `${actor.reference}:${String(context.row)}` };
  return versionWrites({ deps: context.deps, principal: undefined, actor, record }, [{ ...replaced, change: 'updated' }]);
}

/**
 * The condition of a row's write over a stored record: the item is still exactly the one read (so the version kept is
 * what the write replaced), and none of the attributes the new item sets appeared meanwhile. A change meanwhile fails
 * it; the importer judges the row again against the new state.
 */
export const unchangedSinceRead = (stored: TableItem, next: TableItem): WriteCondition => unchangedItem(stored, Object.keys(next));
