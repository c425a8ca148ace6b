import * as z from 'zod';
import { SupervisionItem } from '#shared/contract/entities/supervision.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * Named indexes of a review item (lambdas/supervision/items):
 * - byQueue: the tenant's outstanding items (Open, Claimed, Escalated) by deadline, so the queue and its overdue part
 *   (deadline before now: a key range) are one Query; closed items sit in their own partition by closing time, which
 *   the reviewers report reads over a period;
 * - byRecordingTime: every item by its recording's time (the list's period filter, the outcomes report);
 * - byAssignee: the items one reviewer holds, by deadline ("my queue").
 */
export const SUPERVISION_ITEM_INDEXES = { byQueue: 'gsi1', byRecordingTime: 'gsi2', byAssignee: 'gsi3' } as const;

/** An item's own partition: the item (`ITEM`) and its history entries (`HIST#<seq>`, supervision-history.ts). */
export const supervisionItemPartition = (client: string, itemReference: string) => `${tenantPrefix(client)}SUPITEM#${part(itemReference)}`;
const queuePartition = (client: string, outstanding: boolean) => `${tenantPrefix(client)}SUPITEMS#${outstanding ? 'OUTSTANDING' : 'CLOSED'}`;
const recordingTimePartition = (client: string) => `${tenantPrefix(client)}SUPITEMS#BY_TIME`;
const assigneePartition = (client: string, assignee: string) => `${tenantPrefix(client)}SUPITEMS#ASSIGNEE#${part(assignee)}`;

/** What places an item in its lists: its state, deadline, closing time, recording time and assignee. */
interface ItemPlacement {
  itemReference: string;
  state: string;
  dueAt: string;
  closedAt?: string | undefined;
  payloadTime: string;
  assignee?: string | undefined;
}

export const supervisionItemKeys = {
  item: (client: string, placement: ItemPlacement): ItemKeys => {
    const { itemReference, state, dueAt, closedAt, payloadTime, assignee } = placement;
    const outstanding = state !== 'Closed';
    return {
      ...supervisionItemKeys.key(client, itemReference),
      entity: ENTITY.supervisionItem,
      ...onIndex[SUPERVISION_ITEM_INDEXES.byQueue](queuePartition(client, outstanding), timeSort(outstanding ? dueAt : (closedAt ?? dueAt), itemReference)),
      ...onIndex[SUPERVISION_ITEM_INDEXES.byRecordingTime](recordingTimePartition(client), timeSort(payloadTime, itemReference)),
      // Only while someone holds it and it is not closed: a closed item leaves every reviewer's own queue.
      ...(assignee === undefined || !outstanding ? {} : onIndex[SUPERVISION_ITEM_INDEXES.byAssignee](assigneePartition(client, assignee), timeSort(dueAt, itemReference))),
    };
  },
  key: (client: string, itemReference: string): ItemKey => ({ pk: supervisionItemPartition(client, itemReference), sk: 'ITEM' }),
  /** Outstanding items (Open, Claimed, Escalated), soonest deadline first; `sort.between ['0', now]` is the overdue part. */
  outstanding: (client: string): ListKey => list(SUPERVISION_ITEM_INDEXES.byQueue, queuePartition(client, true)),
  /** Closed items by closing time. */
  closed: (client: string): ListKey => list(SUPERVISION_ITEM_INDEXES.byQueue, queuePartition(client, false)),
  /** Every item by its recording's time. */
  byRecordingTime: (client: string): ListKey => list(SUPERVISION_ITEM_INDEXES.byRecordingTime, recordingTimePartition(client)),
  /** The outstanding items one portal user holds, soonest deadline first. */
  byAssignee: (client: string, assignee: string): ListKey => list(SUPERVISION_ITEM_INDEXES.byAssignee, assigneePartition(client, assignee)),
};

/**
 * A review item as stored: the contract's item without `is_overdue` (a fact of the reading time, not of the item),
 * plus the policies of its hits as a list (the policy filter reads it without walking the hits), and what retention
 * wrote when it disposed of a closed item (SupervisionData: Deleted, or Destroyed while its history is purged; such an
 * item is never shown or changed again).
 */
export const supervisionItemStoredSchema = /* @__PURE__ */ onFirstUse(() => SupervisionItem.omit({ is_overdue: true }).extend({
  policy_references: z.array(z.string()).default([]),
  retention_state: z.enum(['Deleted', 'Destroyed']).optional(),
  deleted_at: z.string().optional(),
  destroyed_at: z.string().optional(),
}));
export type SupervisionItemStored = z.infer<ReturnType<typeof supervisionItemStoredSchema>>;

export function readSupervisionItem(item: TableItem): SupervisionItemStored {
  return readItem('SupervisionItem', supervisionItemStoredSchema(), item);
}

/** The item under its keys: its lists follow its state, deadline, closing time and assignee. */
export function supervisionItemToItem(client: string, stored: SupervisionItemStored): TableItem {
  return {
    ...supervisionItemKeys.item(client, {
      itemReference: stored.item_reference,
      state: stored.state,
      dueAt: stored.due_at,
      closedAt: stored.closed_at,
      payloadTime: stored.payload_time,
      assignee: stored.assignee,
    }),
    ...stored,
  };
}

/** The contract's item at `now`: overdue when not closed and past its deadline. */
export function toSupervisionItem(stored: SupervisionItemStored, now: Date): SupervisionItem {
  const { policy_references: _policies, ...item } = stored;
  return SupervisionItem.parse({ ...item, is_overdue: stored.state !== 'Closed' && stored.due_at < now.toISOString() });
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const supervisionItemModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.supervisionItem,
  title: 'Supervision review item (one per recording)',
  module: 'supervision-item.ts',
  indexes: SUPERVISION_ITEM_INDEXES,
  items: [
    {
      when: 'outstanding, held by a reviewer',
      example: () => supervisionItemKeys.item(EXAMPLE_CLIENT, { itemReference: '<payload_reference>', state: 'Claimed', dueAt: '<due_at>', payloadTime: '<payload_time>', assignee: '<assignee>' }),
    },
    {
      when: 'Closed',
      example: () => supervisionItemKeys.item(EXAMPLE_CLIENT, { itemReference: '<payload_reference>', state: 'Closed', dueAt: '<due_at>', closedAt: '<closed_at>', payloadTime: '<payload_time>' }),
    },
  ],
  accessPatterns: [
    { name: 'One review item', serves: '`GET`/`PUT supervision/items/{item_reference}`, raising hits', builders: ['keys.supervisionItem.key'], example: () => supervisionItemKeys.key(EXAMPLE_CLIENT, '<payload_reference>') },
    {
      name: 'The outstanding queue, soonest deadline first',
      serves: '`GET supervision/items` (state, overdue: deadline range), the outstanding report, the deadlines job (overdue: key range up to now)',
      builders: ['keys.supervisionItem.outstanding'],
      example: () => supervisionItemKeys.outstanding(EXAMPLE_CLIENT),
    },
    { name: 'Closed items by closing time', serves: '`GET supervision/items?state=Closed`, the reviewers report (period: key range)', builders: ['keys.supervisionItem.closed'], example: () => supervisionItemKeys.closed(EXAMPLE_CLIENT) },
    {
      name: 'Items by recording time',
      serves: '`GET supervision/items` (from/to: key range; the default list, newest first), the outcomes report',
      builders: ['keys.supervisionItem.byRecordingTime'],
      example: () => supervisionItemKeys.byRecordingTime(EXAMPLE_CLIENT),
    },
    { name: 'A reviewer\'s own queue', serves: '`GET supervision/items?assignee=`', builders: ['keys.supervisionItem.byAssignee'], example: () => supervisionItemKeys.byAssignee(EXAMPLE_CLIENT, '<assignee>') },
  ],
}));
