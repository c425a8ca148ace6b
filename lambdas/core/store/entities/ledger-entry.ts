import * as z from 'zod';
import { LedgerOutcome, LedgerPayloadType, type CompletenessOutcome } from '#shared/constants/completeness.ts';
import { Direction } from '#shared/constants/payloads.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * Named indexes of a ledger entry (capture completeness, lambdas/completeness):
 * - byDeviceTime: one device's entries by start time, so matching a recording reads one small time window;
 * - byDeviceUserTime: a device user's entries by start time (the entries list by device user);
 * - byOutcome: the tenant's entries of one outcome by start time (the entries list by outcome; the sweep of Pending
 *   entries). Rewritten in the write that changes the outcome, so an entry sits in exactly its outcome's partition.
 */
export const LEDGER_ENTRY_INDEXES = { byDeviceTime: 'gsi1', byDeviceUserTime: 'gsi2', byOutcome: 'gsi3' } as const;

const ENTRY_PREFIX = 'ENTRY#';
const ledgerPartition = (client: string, deviceReference: string) => `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#LEDGER`;
const byDeviceTimePartition = (client: string, deviceReference: string) => `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#LEDGER#T`;
/** Shared with awaiting-entry.ts: an Unexpected recording is listed beside the entries of its device user and outcome. */
export const completenessDeviceUserPartition = (client: string, deviceUserReference: string) => `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#LEDGER`;
export const completenessOutcomePartition = (client: string, outcome: CompletenessOutcome) => `${tenantPrefix(client)}LEDGER#${part(outcome)}`;

/**
 * An entry's reference across devices: entry ids are unique only on their own phone, so lists that mix devices (a
 * device user's, an outcome's) order and name an entry by device and id.
 */
export const ledgerEntryReference = (deviceReference: string, entryId: string) => `${deviceReference}/${entryId}`;

/** What places an entry in its lists. */
interface EntryPlacement {
  deviceReference: string;
  entryId: string;
  startTime: string;
  outcome: LedgerOutcome;
  deviceUserReference?: string | undefined;
}

export const ledgerEntryKeys = {
  item: (client: string, placement: EntryPlacement): ItemKeys => {
    const { deviceReference, entryId, startTime, deviceUserReference } = placement;
    const reference = ledgerEntryReference(deviceReference, entryId);
    return {
      ...ledgerEntryKeys.key(client, deviceReference, entryId),
      entity: ENTITY.ledgerEntry,
      ...onIndex[LEDGER_ENTRY_INDEXES.byDeviceTime](byDeviceTimePartition(client, deviceReference), timeSort(startTime, entryId)),
      ...(deviceUserReference === undefined
        ? {}
        : onIndex[LEDGER_ENTRY_INDEXES.byDeviceUserTime](completenessDeviceUserPartition(client, deviceUserReference), timeSort(startTime, reference))),
      ...ledgerEntryKeys.outcomeIndex(client, placement),
    };
  },
  /** Idempotency: the phone's entry id is the sort key, so a resent entry is the same item (conditional put). */
  key: (client: string, deviceReference: string, entryId: string): ItemKey => ({ pk: ledgerPartition(client, deviceReference), sk: `${ENTRY_PREFIX}${part(entryId)}` }),
  /** The byOutcome attributes of an entry with this outcome: SET in the same update that changes the outcome. */
  outcomeIndex: (client: string, placement: Pick<EntryPlacement, 'deviceReference' | 'entryId' | 'startTime' | 'outcome'>) =>
    onIndex[LEDGER_ENTRY_INDEXES.byOutcome](
      completenessOutcomePartition(client, placement.outcome),
      timeSort(placement.startTime, ledgerEntryReference(placement.deviceReference, placement.entryId)),
    ),
  /** One device's entries by start time (a window around a recording's time is a key range). */
  listByDevice: (client: string, deviceReference: string): ListKey => list(LEDGER_ENTRY_INDEXES.byDeviceTime, byDeviceTimePartition(client, deviceReference)),
  /** A device user's entries (and Unexpected recordings) by start time. */
  listByDeviceUser: (client: string, deviceUserReference: string): ListKey =>
    list(LEDGER_ENTRY_INDEXES.byDeviceUserTime, completenessDeviceUserPartition(client, deviceUserReference)),
  /** The tenant's entries of one outcome by start time (`Unexpected`: the Unexpected recordings, awaiting-entry.ts). */
  listByOutcome: (client: string, outcome: CompletenessOutcome): ListKey => list(LEDGER_ENTRY_INDEXES.byOutcome, completenessOutcomePartition(client, outcome)),
};

/**
 * A ledger entry as stored: what the phone reported (shared/contract/entities/completeness.ts LedgerEntryReport) plus
 * what Verity knows of it: the device that reported it (the authenticated one, never the body's word), who held the
 * device and in which group when the entry was first stored (kept, so every later outcome change moves the same
 * counter items), its outcome and the recording that captured it. `day` is the UTC day of `start_time`, the day it
 * counts on; `due_at` ends its grace period.
 */
export const ledgerEntryItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  entry_id: z.string(),
  payload_type: LedgerPayloadType,
  phone_number: z.string().optional(),
  thread_id: z.string().optional(),
  direction: Direction,
  start_time: z.string(),
  /** Calls only: seconds by the call log. */
  duration: z.number().optional(),
  device_reference: z.string(),
  device_user_reference: z.string().optional(),
  group: z.string().optional(),
  outcome: LedgerOutcome,
  payload_reference: z.string().optional(),
  recording_duration: z.number().optional(),
  is_intermittent: z.boolean().optional(),
  uploaded_at: z.string().optional(),
  reported_at: z.string(),
  outcome_at: z.string(),
  due_at: z.string(),
  day: z.string(),
  /**
   * Set in the write that makes the entry Short (or Missing) and removed once its gap alert is raised: a run that
   * fails between the two raises it on its retry, so no gap goes unalerted.
   */
  alert_pending: z.boolean().optional(),
}));
export type LedgerEntryItem = z.infer<ReturnType<typeof ledgerEntryItemSchema>>;

export function readLedgerEntry(item: TableItem): LedgerEntryItem {
  return readItem('LedgerEntry', ledgerEntryItemSchema(), item);
}

/** The entry under its keys: its outcome's list follows its outcome. */
export function ledgerEntryToItem(client: string, entry: LedgerEntryItem): TableItem {
  return {
    ...ledgerEntryKeys.item(client, {
      deviceReference: entry.device_reference,
      entryId: entry.entry_id,
      startTime: entry.start_time,
      outcome: entry.outcome,
      deviceUserReference: entry.device_user_reference,
    }),
    ...entry,
  };
}

/**
 * The device's ledger watermark, kept on the device item (`keys.device.key`): how far its ledger covers
 * (`ledger_covered_to`, only ever moved forward) and when it last sent one. The sweep reads it before calling a
 * recording Unexpected, and the silent-device check reads `ledger_reported_at`.
 */
export const ledgerWatermarkSchema = /* @__PURE__ */ onFirstUse(() => z.object({ ledger_covered_to: z.string().optional(), ledger_reported_at: z.string().optional() }));
export type LedgerWatermark = z.infer<ReturnType<typeof ledgerWatermarkSchema>>;

export function readLedgerWatermark(deviceItem: TableItem): LedgerWatermark {
  return readItem('Device', ledgerWatermarkSchema(), deviceItem);
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const ledgerEntryModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.ledgerEntry,
  title: 'Ledger entry (a call or message the phone saw, and its capture outcome)',
  module: 'ledger-entry.ts',
  indexes: LEDGER_ENTRY_INDEXES,
  items: [
    {
      when: 'byDeviceUserTime when the device had a holder when it was stored',
      example: () =>
        ledgerEntryKeys.item(EXAMPLE_CLIENT, { deviceReference: '<device_reference>', entryId: '<entry_id>', startTime: '<start_time>', outcome: 'Pending', deviceUserReference: '<device_user_reference>' }),
    },
  ],
  accessPatterns: [
    {
      name: 'One ledger entry',
      serves: '`POST /device/v1/ledger` (conditional put: a resent entry is the same item; BatchGet of a report\'s ids), matching updates',
      builders: ['keys.ledgerEntry.key'],
      example: () => ledgerEntryKeys.key(EXAMPLE_CLIENT, '<device_reference>', '<entry_id>'),
    },
    {
      name: 'A device\'s entries by start time',
      serves: 'matching a processed recording (a key range of MATCH_TOLERANCE_SECONDS around its time); `GET completeness/entries?device_reference=`',
      builders: ['keys.ledgerEntry.listByDevice'],
      example: () => ledgerEntryKeys.listByDevice(EXAMPLE_CLIENT, '<device_reference>'),
    },
    {
      name: 'A device user\'s entries and Unexpected recordings by start time',
      serves: '`GET completeness/entries?device_user_reference=`',
      builders: ['keys.ledgerEntry.listByDeviceUser'],
      example: () => ledgerEntryKeys.listByDeviceUser(EXAMPLE_CLIENT, '<device_user_reference>'),
    },
    {
      name: 'The tenant\'s entries of one outcome by start time',
      serves: '`GET completeness/entries?outcome=` (`Unexpected`: the Unexpected recordings); the completeness sweep (Pending entries up to a start time)',
      builders: ['keys.ledgerEntry.listByOutcome'],
      example: () => ledgerEntryKeys.listByOutcome(EXAMPLE_CLIENT, 'Pending'),
    },
  ],
}));
