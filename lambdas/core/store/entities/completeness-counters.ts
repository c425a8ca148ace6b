import * as z from 'zod';
import { LEDGER_PAYLOAD_TYPES, type LedgerPayloadType } from '#shared/constants/completeness.ts';
import type { CompletenessCounts } from '#shared/contract/entities/completeness.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readCounterItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * Capture completeness counts, one item per UTC day and cut: the tenant's, a group's, a device user's, a device's.
 * The device user's and the device's are kept twice: in the cut's partition of all of them by day (`<day>#<who>`,
 * the report of every device user or device over a period is one Query) and in the one person's or phone's own
 * partition (`<day>`, one device user's or device's report is one Query). Every outcome change of an entry ADDs to
 * all of its day's items in the transaction of the entry's write (lambdas/completeness/reconcile/counter-moves.ts),
 * so the items always agree and a report reads counts, never entries.
 */
const cutPartition = (client: string, cut: 'TENANT' | 'GROUP' | 'DUSER' | 'DEVICE') => `${tenantPrefix(client)}COMPLETENESS#${cut}`;
const deviceUserOwnPartition = (client: string, deviceUserReference: string) => `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#COMPLETENESS`;
const deviceOwnPartition = (client: string, deviceReference: string) => `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#COMPLETENESS`;
const counters = (pk: string, sk: string): ItemKeys => ({ pk, sk, entity: ENTITY.completenessCounters });

export const completenessCounterKeys = {
  tenantDay: (client: string, day: string): ItemKeys => counters(cutPartition(client, 'TENANT'), day),
  groupDay: (client: string, day: string, group: string): ItemKeys => counters(cutPartition(client, 'GROUP'), `${day}#${part(group)}`),
  deviceUserDay: (client: string, day: string, deviceUserReference: string): ItemKeys => counters(cutPartition(client, 'DUSER'), `${day}#${part(deviceUserReference)}`),
  deviceUserOwnDay: (client: string, day: string, deviceUserReference: string): ItemKeys => counters(deviceUserOwnPartition(client, deviceUserReference), day),
  deviceDay: (client: string, day: string, deviceReference: string): ItemKeys => counters(cutPartition(client, 'DEVICE'), `${day}#${part(deviceReference)}`),
  deviceOwnDay: (client: string, day: string, deviceReference: string): ItemKeys => counters(deviceOwnPartition(client, deviceReference), day),
  /** The tenant's days: a period is the sort-key range `<from>` .. `<to>~` (completenessPeriodRange). */
  listTenant: (client: string): ListKey => list(undefined, cutPartition(client, 'TENANT')),
  /** Every group's days, by day then group. */
  listGroups: (client: string): ListKey => list(undefined, cutPartition(client, 'GROUP')),
  /** Every device user's days, by day then device user. */
  listDeviceUsers: (client: string): ListKey => list(undefined, cutPartition(client, 'DUSER')),
  /** Every device's days, by day then device. */
  listDevices: (client: string): ListKey => list(undefined, cutPartition(client, 'DEVICE')),
  /** One device user's days. */
  listDeviceUser: (client: string, deviceUserReference: string): ListKey => list(undefined, deviceUserOwnPartition(client, deviceUserReference)),
  /** One device's days. */
  listDevice: (client: string, deviceReference: string): ListKey => list(undefined, deviceOwnPartition(client, deviceReference)),
};

/** The sort-key range of the days `from` to `to` (YYYY-MM-DD, inclusive) in any counters partition. */
export function completenessPeriodRange(from: string, to: string): { between: [string, string] } {
  return { between: [from, `${to}~`] };
}

/** What is counted per payload type: the outcomes of entries, `expected` (every entry) and `unexpected` recordings. */
export const COMPLETENESS_COUNTERS = ['expected', 'captured', 'captured_late', 'short', 'pending', 'missing', 'unexpected'] as const;
export type CompletenessCounter = (typeof COMPLETENESS_COUNTERS)[number];

/** A counter attribute: `<payload type>#<counter>` (`Call#expected`, `SMS#missing`). */
export const completenessCounterAttribute = (payloadType: LedgerPayloadType, counter: CompletenessCounter) => `${payloadType}#${counter}`;

const ATTRIBUTES: ReadonlyMap<string, string> = new Map(
  LEDGER_PAYLOAD_TYPES.flatMap((type) => COMPLETENESS_COUNTERS.map((counter) => {
    const attribute = completenessCounterAttribute(type, counter);
    return [attribute, attribute] as const;
  })),
);

/** The labels a counter item carries (SET with every ADD), so a row names its cut without another read. */
const completenessLabelsSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  day: z.string(),
  group: z.string().optional(),
  device_user_reference: z.string().optional(),
  device_reference: z.string().optional(),
}));

export type CompletenessCountersItem = z.infer<ReturnType<typeof completenessLabelsSchema>> & {
  /** Every counter by its attribute (`Call#expected`), absent until first counted. */
  counters: Record<string, number>;
};

export function readCompletenessCounters(item: Partial<TableItem>): CompletenessCountersItem {
  return readCounterItem('CompletenessCounters', completenessLabelsSchema(), item, (attribute) => ATTRIBUTES.get(attribute));
}

/**
 * The counts of the payload types allowed (a scope's types; all four when unlimited), summed from the per-type
 * counters. `share_complete` is the captured share of the entries past Pending, absent when there are none. A counter
 * a race could have left below 0 reads as 0 (counts are never negative).
 */
export function countsOf(item: Pick<CompletenessCountersItem, 'counters'>, allowedTypes: readonly LedgerPayloadType[] = LEDGER_PAYLOAD_TYPES): CompletenessCounts {
  const sum = (counter: CompletenessCounter) =>
    Math.max(0, allowedTypes.reduce((total, type) => total + (item.counters[completenessCounterAttribute(type, counter)] ?? 0), 0));
  const counts = {
    expected: sum('expected'),
    captured: sum('captured'),
    captured_late: sum('captured_late'),
    short: sum('short'),
    pending: sum('pending'),
    missing: sum('missing'),
    unexpected: sum('unexpected'),
  };
  const settled = counts.expected - counts.pending;
  return settled > 0 ? { ...counts, share_complete: Math.min(1, (counts.captured + counts.captured_late) / settled) } : counts;
}

/** Adds counter items (several days of one cut, or several cuts' shares): every counter summed by attribute. */
export function sumCompletenessCounters(items: readonly Pick<CompletenessCountersItem, 'counters'>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const item of items) for (const [attribute, value] of Object.entries(item.counters)) total[attribute] = (total[attribute] ?? 0) + value;
  return total;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const completenessCountersModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.completenessCounters,
  title: 'Capture completeness counts of one day and cut (attributes `<payload type>#<counter>`)',
  module: 'completeness-counters.ts',
  indexes: {},
  items: [
    { when: 'the tenant\'s day', example: () => completenessCounterKeys.tenantDay(EXAMPLE_CLIENT, '<day>') },
    { when: 'a group\'s day', example: () => completenessCounterKeys.groupDay(EXAMPLE_CLIENT, '<day>', '<group>') },
    { when: 'a device user\'s day, among all of them', example: () => completenessCounterKeys.deviceUserDay(EXAMPLE_CLIENT, '<day>', '<device_user_reference>') },
    { when: 'a device user\'s day, in their own partition', example: () => completenessCounterKeys.deviceUserOwnDay(EXAMPLE_CLIENT, '<day>', '<device_user_reference>') },
    { when: 'a device\'s day, among all of them', example: () => completenessCounterKeys.deviceDay(EXAMPLE_CLIENT, '<day>', '<device_reference>') },
    { when: 'a device\'s day, in its own partition', example: () => completenessCounterKeys.deviceOwnDay(EXAMPLE_CLIENT, '<day>', '<device_reference>') },
  ],
  accessPatterns: [
    { name: 'The tenant\'s days', serves: '`GET completeness?by=tenant` (period: sort-key range, newest first)', builders: ['keys.completenessCounters.listTenant'], example: () => completenessCounterKeys.listTenant(EXAMPLE_CLIENT) },
    { name: 'Every group\'s days', serves: '`GET completeness?by=group` (period: sort-key range)', builders: ['keys.completenessCounters.listGroups'], example: () => completenessCounterKeys.listGroups(EXAMPLE_CLIENT) },
    {
      name: 'Every device user\'s days',
      serves: '`GET completeness?by=device_user` (period: sort-key range)',
      builders: ['keys.completenessCounters.listDeviceUsers'],
      example: () => completenessCounterKeys.listDeviceUsers(EXAMPLE_CLIENT),
    },
    { name: 'Every device\'s days', serves: '`GET completeness?by=device` (period: sort-key range)', builders: ['keys.completenessCounters.listDevices'], example: () => completenessCounterKeys.listDevices(EXAMPLE_CLIENT) },
    {
      name: 'One device user\'s days',
      serves: '`GET users/{device_user_reference}/completeness`',
      builders: ['keys.completenessCounters.listDeviceUser'],
      example: () => completenessCounterKeys.listDeviceUser(EXAMPLE_CLIENT, '<device_user_reference>'),
    },
    {
      name: 'One device\'s days',
      serves: '`GET devices/{device_reference}/completeness`',
      builders: ['keys.completenessCounters.listDevice'],
      example: () => completenessCounterKeys.listDevice(EXAMPLE_CLIENT, '<device_reference>'),
    },
  ],
}));
