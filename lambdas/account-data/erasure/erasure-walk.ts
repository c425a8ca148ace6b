import type { Dependencies } from '#core/dependencies.ts';
import type { ItemKey, QuerySpec, TableItem } from '#core/ports/table-store.ts';
import { readRetainedItem } from '#core/store/entities/retained-item.ts';
import { ENTITY } from '#core/store/key-parts.ts';
import { keys, type TimedList } from '#core/store/keys.ts';
import type { RetentionRecordType } from '#shared/constants/account.ts';
import type { ErasureKind } from '#shared/contract/entities/erasure-requests.ts';
import { recordHolds, type HoldTarget } from '../legal-holds/coverage.ts';
import { retainedRecordFrom, stageOf, type RetainedRecord } from '../retention/due-index.ts';
import { recordChangesOf } from '../retention/record-changes/by-entity.ts';
import { getRetentionPolicy } from '../retention/retention-policy.ts';
import { rulesOf, type RetentionRule } from '../retention/retention-rules.ts';
import { decideRecord, type RecordVerdict } from './erasure-decision.ts';

/**
 * What the erasure jobs walk for one person, kind by kind, each by Query on the lists the legal holds' coverage reads
 * (legal-holds/coverage-counts.ts): the device user's own record (their personal fields), then the recordings, GPS
 * fixes, device log lines and capture ledger entries attributed to them. Never a Scan, a page at a time.
 */

export type WalkDependencies = Pick<Dependencies, 'table' | 'blobs' | 'clock' | 'logger'>;

/** A kind walked: its record type, and the Query of its records about the person (undefined: one item, read by key). */
export interface WalkedKind {
  kind: ErasureKind;
  recordType: RetentionRecordType;
  list: (client: string, deviceUser: string) => QuerySpec | undefined;
  /** Which items of a page are this kind's records (a list may hold other items beside them). */
  keep?: (item: TableItem) => boolean;
  /** The records a listed item leads to, by key (a recording's review item), when the list is not of the records. */
  resolve?: (client: string, item: TableItem) => ItemKey;
}

/** A time-ordered device data list as a Query: a device's partition holds several kinds, told apart by sort prefix. */
function timed({ sortPrefix, ...list }: TimedList): QuerySpec {
  return sortPrefix === '' ? list : { ...list, sort: { beginsWith: sortPrefix } };
}

/**
 * The kinds in walking order. The person's own record comes first, so a walk cut short has judged the personal fields.
 * Activity records about the person are not walked yet (docs/erasure.md "Not walked yet").
 */
export const WALKED_KINDS: readonly WalkedKind[] = [
  { kind: 'PersonalFields', recordType: 'DeviceUserData', list: () => undefined },
  { kind: 'Recordings', recordType: 'PayloadData', list: (client, user) => keys.payload.listByDeviceUser(client, user) },
  { kind: 'GpsFixes', recordType: 'GpsData', list: (client, user) => timed(keys.gps.byDeviceUser(client, user)) },
  { kind: 'DeviceLogs', recordType: 'DeviceData', list: (client, user) => timed(keys.deviceLog.byDeviceUser(client, user)) },
  {
    kind: 'LedgerEntries',
    recordType: 'CaptureLedgerData',
    list: (client, user) => keys.ledgerEntry.listByDeviceUser(client, user),
    // The person's ledger list also holds the Unexpected recordings' markers: not records of their own.
    keep: (item) => item.entity === ENTITY.ledgerEntry,
  },
  {
    kind: 'SupervisionItems',
    recordType: 'SupervisionData',
    // A review item is the review of one recording, under the recording's reference: the person's recordings lead to them.
    list: (client, user) => keys.payload.listByDeviceUser(client, user),
    resolve: (client, item) => keys.supervisionItem.key(client, String(item.payload_reference)),
  },
];

/** Why a record that has not ended is kept, in words for the report. */
const NOT_ENDED: Partial<Record<string, string>> = {
  DeviceUser: 'DeviceUserData: an onboarded person\'s record is kept while they are onboarded',
  SupervisionItem: 'SupervisionData: an open review item is kept until it is closed',
};

/** Why retention's own refusal keeps an ended record (a person still holding a device), in words. */
const OWN_REFUSAL: Partial<Record<string, string>> = {
  active: 'DeviceUserData: the person still holds a device that is not deactivated',
};

/** One record judged: its verdict, and what the run needs to erase it. */
export interface Judged {
  item: TableItem;
  record?: RetainedRecord | undefined;
  verdict: RecordVerdict;
}

/** The judge of one tenant's records at one time: the tenant's policy and its holds, read once per invocation. */
export interface Judge {
  rules: RetentionRule[];
  judge(item: TableItem): Promise<Judged | undefined>;
}

/** The rule of a record's type (and payload type), as the retention job would apply it. */
export function ruleFor(rules: readonly RetentionRule[], record: Pick<RetainedRecord, 'recordType' | 'payloadType'>): RetentionRule | undefined {
  return rules.find((rule) => rule.recordType === record.recordType && (rule.payloadType === undefined || rule.payloadType === record.payloadType));
}

/**
 * Judges records at `now` with the tenant's current policy and its active holds. Undefined for an item that is no
 * retained record, or one retention has destroyed already (nothing of it is left to erase).
 */
export async function judgeOf(deps: WalkDependencies, client: string, now: string): Promise<Judge> {
  const rules = rulesOf(await getRetentionPolicy(deps, client));
  const holdOf = recordHolds(deps, client);
  return {
    rules,
    judge: async (item) => {
      const retained = readRetainedItem(item);
      if (retained === undefined || stageOf(item) === undefined) return undefined;
      const hold: HoldTarget | undefined = await holdOf(item);
      const record = retainedRecordFrom(item, retained);
      let notEnded = record === undefined ? (NOT_ENDED[retained.entity] ?? `${retained.entity}: the record has not ended`) : undefined;
      if (hold === undefined && notEnded === undefined) {
        const own = await recordChangesOf(retained.entity)?.refusal?.(deps, client, item);
        if (own !== undefined) notEnded = OWN_REFUSAL[own] ?? `${retained.entity}: retention keeps it (${own})`;
      }
      const verdict = decideRecord({ hold, notEnded, rule: record === undefined ? undefined : ruleFor(rules, record), bases: record?.bases, now });
      return { item, record, verdict };
    },
  };
}

/** One page of a kind's records about the person, read again by key (consistent: the lists are indexes). */
export async function pageOf(deps: WalkDependencies, client: string, deviceUser: string, kind: WalkedKind, batch: number, startKey?: Record<string, string>) {
  const list = kind.list(client, deviceUser);
  if (list === undefined) {
    const item = await deps.table.get(keys.deviceUser.key(client, deviceUser), { consistent: true });
    return { items: item === undefined ? [] : [item], lastKey: undefined };
  }
  const page = await deps.table.query({ ...list, limit: batch, ...(startKey === undefined ? {} : { startKey }) });
  const listed = kind.keep === undefined ? page.items : page.items.filter(kind.keep);
  const recordKeys = listed.map((item) => (kind.resolve === undefined ? { pk: item.pk, sk: item.sk } : kind.resolve(client, item)));
  // Read again by key: consistent, and a recording with no review item leads to nothing.
  const fresh = recordKeys.length === 0 ? [] : await deps.table.batchGet(recordKeys, { consistent: true });
  return { items: fresh, lastKey: page.lastKey };
}
