import type { LedgerOutcome, LedgerPayloadType } from '#shared/constants/completeness.ts';
import type { TransactOperation } from '#core/ports/table-store.ts';
import { completenessCounterAttribute, type CompletenessCounter } from '#core/store/entities/completeness-counters.ts';
import { keys } from '#core/store/keys.ts';

/** Where an entry (or an Unexpected recording) counts: its UTC day, its device, and the holder and group it was stored with. */
export interface CountedCuts {
  day: string;
  device_reference: string;
  device_user_reference?: string | undefined;
  group?: string | undefined;
}

/** A change of counts: counter → amount (negative to take back). */
export type CountChange = Partial<Record<CompletenessCounter, number>>;

const COUNTER_OF: Record<LedgerOutcome, CompletenessCounter> = {
  Captured: 'captured',
  'Captured late': 'captured_late',
  Short: 'short',
  Pending: 'pending',
  Missing: 'missing',
};

/** The counter an outcome counts in. */
export const counterOf = (outcome: LedgerOutcome): CompletenessCounter => COUNTER_OF[outcome];

/** One change of counts on one cut set, for one payload type. */
export interface CountMove {
  cuts: CountedCuts;
  payloadType: LedgerPayloadType;
  change: CountChange;
}

/** The counter items of the cuts' day, each with the labels it carries. */
function counterItemsOf(client: string, cuts: CountedCuts) {
  const { day, device_reference: device, device_user_reference: user, group } = cuts;
  // Device user and device rows carry the group too: the reports judge them by it (group scope, the `group` filter).
  const inGroup = group === undefined ? {} : { group };
  return [
    { key: keys.completenessCounters.tenantDay(client, day), labels: { day } },
    ...(group === undefined ? [] : [{ key: keys.completenessCounters.groupDay(client, day, group), labels: { day, group } }]),
    ...(user === undefined
      ? []
      : [
          { key: keys.completenessCounters.deviceUserDay(client, day, user), labels: { day, device_user_reference: user, ...inGroup } },
          { key: keys.completenessCounters.deviceUserOwnDay(client, day, user), labels: { day, device_user_reference: user, ...inGroup } },
        ]),
    { key: keys.completenessCounters.deviceDay(client, day, device), labels: { day, device_reference: device, ...inGroup } },
    { key: keys.completenessCounters.deviceOwnDay(client, day, device), labels: { day, device_reference: device, ...inGroup } },
  ];
}

/**
 * The ADDs that apply the moves to every counter item of their days: per move, the tenant's, the group's (when it has
 * one), the device user's twice (among all, and their own) when it has one, the device's twice. Moves that touch the
 * same item are merged into one update (a transaction may name an item once), and counters that net to nothing are
 * left out. Each update sets the item's labels, so a row names its cut. Meant to join the transaction of the write
 * that changes the entry or the recording, so counts and entries never disagree.
 */
export function counterOperations(client: string, moves: readonly CountMove[]): TransactOperation[] {
  const merged = new Map<string, { key: { pk: string; sk: string }; set: Record<string, unknown>; add: Record<string, number> }>();
  for (const { cuts, payloadType, change } of moves) {
    for (const { key, labels } of counterItemsOf(client, cuts)) {
      const at = `${key.pk}\n${key.sk}`;
      const item = merged.get(at) ?? { key: { pk: key.pk, sk: key.sk }, set: { entity: key.entity, ...labels }, add: {} };
      for (const [counter, amount] of Object.entries(change)) {
        const attribute = completenessCounterAttribute(payloadType, counter as CompletenessCounter);
        item.add[attribute] = (item.add[attribute] ?? 0) + (amount ?? 0);
      }
      merged.set(at, item);
    }
  }
  return [...merged.values()].flatMap(({ key, set, add }) => {
    const nonZero = Object.fromEntries(Object.entries(add).filter(([, amount]) => amount !== 0));
    return Object.keys(nonZero).length === 0 ? [] : [{ kind: 'update' as const, key, update: { set, add: nonZero } }];
  });
}

/** A new entry stored with its outcome: one more expected, one more of that outcome. */
export const entryStored = (cuts: CountedCuts, payloadType: LedgerPayloadType, outcome: LedgerOutcome): CountMove => ({
  cuts,
  payloadType,
  change: { expected: 1, [counterOf(outcome)]: 1 },
});

/** An entry's outcome changed: one fewer of the old, one more of the new (the same items it was first counted on). */
export const outcomeChanged = (cuts: CountedCuts, payloadType: LedgerPayloadType, from: LedgerOutcome, to: LedgerOutcome): CountMove => ({
  cuts,
  payloadType,
  change: from === to ? {} : { [counterOf(from)]: -1, [counterOf(to)]: 1 },
});

/** A recording becomes Unexpected (+1) or stops being so once an entry explains it (−1), on its own day and cuts. */
export const unexpectedChanged = (cuts: CountedCuts, payloadType: LedgerPayloadType, amount: 1 | -1): CountMove => ({
  cuts,
  payloadType,
  change: { unexpected: amount },
});
