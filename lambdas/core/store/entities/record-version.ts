import { RecordVersion } from '#shared/contract/entities/record-versions.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, type ItemKeys, type ListKey } from '../key-parts.ts';
import { claimItem, readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * Earlier versions of a record (lambdas/audit/versions/versioned-write.ts): each in the RECORD'S OWN partition, under
 * `VERSION#<record sort key>#<replaced_at>#<log id>`, so a record's versions read newest first with one Query, and
 * whatever removes a record's partition (a destroyed recording's) takes its versions with it. Never updated.
 */
const VERSION_PREFIX = 'VERSION#';

export const recordVersionKeys = {
  item: (record: ItemKey, replacedAt: string, uniquePart: string): ItemKeys => ({
    pk: record.pk,
    sk: `${VERSION_PREFIX}${record.sk}#${replacedAt}#${uniquePart}`,
    entity: ENTITY.recordVersion,
  }),
  /** One record's versions (Query descending for newest first). */
  listOf: (record: ItemKey): ListKey & { sort: { beginsWith: string } } => ({ partition: record.pk, sort: { beginsWith: `${VERSION_PREFIX}${record.sk}#` } }),
  /** The sort-key prefix of every version in a partition. */
  sortPrefix: VERSION_PREFIX,
};

/** The stored version: the contract's RecordVersion, as the API answers it. */
export const recordVersionItemSchema = /* @__PURE__ */ onFirstUse(() => RecordVersion);

export function readRecordVersion(item: TableItem): RecordVersion {
  return readItem('RecordVersion', recordVersionItemSchema(), item);
}

/** What a stored version claims, or undefined (the verifier reports a damaged one rather than stop). */
export function claimedRecordVersion(item: TableItem): RecordVersion | undefined {
  return claimItem(recordVersionItemSchema(), item);
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const recordVersionModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.recordVersion,
  title: 'Record version',
  module: 'record-version.ts',
  indexes: {},
  items: [{ when: 'in the partition of the record it versions', example: () => recordVersionKeys.item({ pk: `C#${EXAMPLE_CLIENT}#ROLES`, sk: 'ROLE#<role_reference>' }, '<replaced_at>', '<log_id>') }],
  accessPatterns: [
    {
      name: 'One record\'s earlier versions, newest first',
      serves: '`GET history/{entity}/{reference}`',
      builders: ['keys.recordVersion.listOf'],
      example: () => recordVersionKeys.listOf({ pk: `C#${EXAMPLE_CLIENT}#ROLES`, sk: 'ROLE#<role_reference>' }),
    },
  ],
}));
