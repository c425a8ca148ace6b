import * as z from 'zod';
import { Direction, PayloadType } from '#shared/constants/payloads.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { completenessDeviceUserPartition, completenessOutcomePartition } from './ledger-entry.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * Named indexes of a recording awaiting its ledger entry:
 * - byTenantTime: the tenant's markers by recording time (the completeness sweep reads those past their grace);
 * - byDeviceUserTime, byOutcome: once Unexpected, the marker sits in the same lists as the ledger entries
 *   (ledger-entry.ts), so the entries list by device user or by outcome `Unexpected` is one Query.
 */
export const AWAITING_ENTRY_INDEXES = { byTenantTime: 'gsi1', byDeviceUserTime: 'gsi2', byOutcome: 'gsi3' } as const;

const awaitingPartition = (client: string, deviceReference: string) => `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#AWAITING`;
const byTenantTimePartition = (client: string) => `${tenantPrefix(client)}AWAITING`;

interface MarkerPlacement {
  deviceReference: string;
  payloadReference: string;
  payloadTime: string;
  unexpected: boolean;
  deviceUserReference?: string | undefined;
}

export const awaitingEntryKeys = {
  item: (client: string, placement: MarkerPlacement): ItemKeys => {
    const { deviceReference, payloadReference, payloadTime, unexpected } = placement;
    return {
      ...awaitingEntryKeys.key(client, deviceReference, payloadTime, payloadReference),
      entity: ENTITY.awaitingEntry,
      ...onIndex[AWAITING_ENTRY_INDEXES.byTenantTime](byTenantTimePartition(client), timeSort(payloadTime, payloadReference)),
      ...(unexpected ? awaitingEntryKeys.unexpectedIndexes(client, placement) : {}),
    };
  },
  /** Device partition by recording time: matching a ledger entry reads a key range around its start time. */
  key: (client: string, deviceReference: string, payloadTime: string, payloadReference: string): ItemKey => ({
    pk: awaitingPartition(client, deviceReference),
    sk: timeSort(payloadTime, payloadReference),
  }),
  /** The attributes SET when the sweep marks a marker Unexpected (and REMOVEd when an entry later explains it). */
  unexpectedIndexes: (client: string, placement: Omit<MarkerPlacement, 'unexpected'>) => ({
    ...onIndex[AWAITING_ENTRY_INDEXES.byOutcome](completenessOutcomePartition(client, 'Unexpected'), timeSort(placement.payloadTime, placement.payloadReference)),
    ...(placement.deviceUserReference === undefined
      ? {}
      : onIndex[AWAITING_ENTRY_INDEXES.byDeviceUserTime](completenessDeviceUserPartition(client, placement.deviceUserReference), timeSort(placement.payloadTime, placement.payloadReference))),
  }),
  /** One device's markers by recording time. */
  listByDevice: (client: string, deviceReference: string): ListKey => list(undefined, awaitingPartition(client, deviceReference)),
  /** The tenant's markers by recording time, oldest first. */
  listByTenant: (client: string): ListKey => list(AWAITING_ENTRY_INDEXES.byTenantTime, byTenantTimePartition(client)),
};

/**
 * A Call, AbortedCall, SMS, MMS or RCS recording that found no ledger entry when it was processed: what matching an
 * entry needs (type, direction, the parties' numbers as digits, thread), what its outcome needs (length, intermittent,
 * upload time, late), and the cuts it counts on once Unexpected (its holder and group as the recording names them, the
 * UTC day of its time). `unexpected` is set by the sweep once its grace has passed and the device's ledger covers its
 * time; a later entry that matches it deletes it (and takes back its Unexpected count).
 */
export const awaitingEntryItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  payload_reference: z.string(),
  payload_type: PayloadType,
  payload_time: z.string(),
  device_reference: z.string(),
  direction: Direction,
  /** The other parties' numbers, digits only (reconcile/numbers.ts). */
  numbers: z.array(z.string()),
  thread_id: z.string().optional(),
  recording_duration: z.number().optional(),
  is_intermittent: z.boolean().optional(),
  uploaded_at: z.string(),
  is_late: z.boolean().optional(),
  device_user_reference: z.string().optional(),
  group: z.string().optional(),
  unexpected: z.boolean(),
  /** When the sweep marked it Unexpected. */
  unexpected_at: z.string().optional(),
  day: z.string(),
}));
export type AwaitingEntryItem = z.infer<ReturnType<typeof awaitingEntryItemSchema>>;

export function readAwaitingEntry(item: TableItem): AwaitingEntryItem {
  return readItem('AwaitingEntry', awaitingEntryItemSchema(), item);
}

export function awaitingEntryToItem(client: string, marker: AwaitingEntryItem): TableItem {
  return {
    ...awaitingEntryKeys.item(client, {
      deviceReference: marker.device_reference,
      payloadReference: marker.payload_reference,
      payloadTime: marker.payload_time,
      unexpected: marker.unexpected,
      deviceUserReference: marker.device_user_reference,
    }),
    ...marker,
  };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const awaitingEntryModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.awaitingEntry,
  title: 'Recording awaiting its ledger entry (Unexpected once the sweep says so)',
  module: 'awaiting-entry.ts',
  indexes: AWAITING_ENTRY_INDEXES,
  items: [
    {
      when: 'awaiting',
      example: () => awaitingEntryKeys.item(EXAMPLE_CLIENT, { deviceReference: '<device_reference>', payloadReference: '<payload_reference>', payloadTime: '<payload_time>', unexpected: false }),
    },
    {
      when: 'Unexpected (byDeviceUserTime when the recording names a device user)',
      example: () =>
        awaitingEntryKeys.item(EXAMPLE_CLIENT, {
          deviceReference: '<device_reference>',
          payloadReference: '<payload_reference>',
          payloadTime: '<payload_time>',
          unexpected: true,
          deviceUserReference: '<device_user_reference>',
        }),
    },
  ],
  accessPatterns: [
    {
      name: 'A device\'s recordings awaiting an entry, by time',
      serves: '`POST /device/v1/ledger` (matching each new entry: a key range of MATCH_TOLERANCE_SECONDS around its start time)',
      builders: ['keys.awaitingEntry.listByDevice'],
      example: () => awaitingEntryKeys.listByDevice(EXAMPLE_CLIENT, '<device_reference>'),
    },
    {
      name: 'The tenant\'s recordings awaiting an entry, by time',
      serves: 'the completeness sweep (markers up to now minus the grace period)',
      builders: ['keys.awaitingEntry.listByTenant'],
      example: () => awaitingEntryKeys.listByTenant(EXAMPLE_CLIENT),
    },
  ],
}));
