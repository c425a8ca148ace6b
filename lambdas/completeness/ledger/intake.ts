import type { SealedUpload } from '#shared/contract/entities/device-auth.ts';
import { readAll } from '#core/store/paging.ts';
import { LedgerReport, type LedgerAccepted } from '#shared/contract/entities/completeness.ts';
import type { LedgerOutcome } from '#shared/constants/completeness.ts';
import { ConflictError, ValidationError } from '#core/errors.ts';
import { inParallel } from '#core/in-parallel.ts';
import { ConditionFailedError, type TransactOperation } from '#core/ports/table-store.ts';
import { readAwaitingEntry, type AwaitingEntryItem } from '#core/store/entities/awaiting-entry.ts';
import { ledgerEntryToItem, readLedgerEntry, type LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import { keys } from '#core/store/keys.ts';
import { dueMarkerPuts } from '../../account-data/public.ts';
import { openUpload } from '../../device-crypto/public.ts';
import { holderOf, parseSealed, touchLastSeen, type UploadDependencies, type UploadingDevice } from '../../device-data/public.ts';
import { completenessSettingsOf } from '../settings/completeness-settings.ts';
import { counterOperations, entryStored, unexpectedChanged, type CountMove } from '../reconcile/counter-moves.ts';
import { chooseRecording, distanceOf, isMatch, matchWindow } from '../reconcile/match.ts';
import { dayOf, dueAtOf, outcomeOfMatch } from '../reconcile/outcome.ts';
import { raisePendingGapAlert } from '../reconcile/pending-gap-alert.ts';
import { capturedFields, entryFactsOf, recordingOfMarker } from '../reconcile/recording-facts.ts';
import { transactCounted } from '../reconcile/transact.ts';
import { readReportTimes, sameFacts, type ReportedEntry } from './report-entries.ts';
import { recordLedgerWatermark } from './watermark.ts';

export type LedgerDependencies = UploadDependencies;

/** Tries at storing one entry whose matching recording another write took or changed first. */
const STORE_ATTEMPTS = 4;

interface Holder {
  deviceUserReference?: string;
  group?: string;
}

/**
 * POST /device/v1/ledger (docs/completeness.md, "The ledger"): opens the sealed report like telemetry, refuses what
 * the contract or the clock refuses (400, one `path: message` line each), then stores each new entry against the
 * authenticated device only (nothing in the report names a device). An id already stored with the same facts is a
 * resend (`already_recorded`); with other facts it is a 409 naming each such entry, and nothing of the report is
 * written. Each new entry looks for a recording awaiting it: matched, it is stored with its outcome and the marker is
 * consumed; else it is stored Pending; either way with its counts, in one transaction conditional on the entry not
 * existing, so a retried or concurrent report counts nothing twice.
 *
 * Cost: one Query of the device's markers over the report's span (per entry when the span holds many), then the entries in
 * transactions of up to 100 writes: their puts with their retention markers, the markers they consume, and their
 * counter ADDs merged per item (a report's entries mostly share their day's 4 to 6 counter items). Batches run one
 * after another: each writes the same counter items, which concurrent transactions would contend for.
 */
export async function uploadLedger(deps: LedgerDependencies, device: UploadingDevice, body: SealedUpload): Promise<LedgerAccepted> {
  const report = parseSealed(LedgerReport, await openUpload(deps, device.client, 'ledger', body));
  const now = deps.clock.now();
  const { coveredTo, entries, problems } = readReportTimes(report, now);
  if (problems.length > 0) throw new ValidationError(problems);

  const stored = await storedEntries(deps, device, entries);
  const conflicts: string[] = [];
  const fresh: Array<{ entry: ReportedEntry; index: number }> = [];
  let alreadyRecorded = 0;
  entries.forEach((entry, index) => {
    const existing = stored.get(entry.entry_id);
    if (existing === undefined) fresh.push({ entry, index });
    else if (sameFacts(existing, entry)) alreadyRecorded += 1;
    else conflicts.push(`meta.entries.${index}.entry_id: Already recorded with other facts`);
  });
  if (conflicts.length > 0) throw new ConflictError(conflicts);

  const holder = await holderOf(deps, device);
  const { graceHours } = await completenessSettingsOf(deps, device.client);
  const planned = await planEntries(deps, device, fresh.map(({ entry, index }) => ({ index, reported: entry, pending: newEntry(device, holder, graceHours, entry, now.toISOString()) })));
  let accepted = 0;
  for (const batch of batchesOf(device.client, planned)) {
    const { stored, already } = await storeBatch(deps, device, batch);
    accepted += stored;
    alreadyRecorded += already;
  }
  await recordLedgerWatermark(deps, device, coveredTo, now.toISOString());
  await touchLastSeen(deps, device, now.toISOString());
  return { accepted, already_recorded: alreadyRecorded };
}

/** The report's ids already stored on this device (one consistent BatchGet). */
async function storedEntries(deps: LedgerDependencies, device: UploadingDevice, entries: readonly ReportedEntry[]): Promise<Map<string, LedgerEntryItem>> {
  const items = await deps.table.batchGet(
    entries.map((entry) => keys.ledgerEntry.key(device.client, device.deviceReference, entry.entry_id)),
    { consistent: true },
  );
  return new Map(items.map((item) => readLedgerEntry(item)).map((entry) => [entry.entry_id, entry]));
}

/** Markers one Query over a whole report's span may read; past that, each entry reads its own window. */
const SPAN_MARKERS_MAX = 250;

/**
 * The markers near each start time. A report mostly spans hours, whose waiting recordings one Query over the span
 * reads (one page of at most SPAN_MARKERS_MAX); a span holding more (a phone back after weeks) is read window by window,
 * a few Queries at once, so the cost per entry stays the same whatever the device's history.
 */
async function markersNearEach(deps: LedgerDependencies, device: UploadingDevice, startTimes: readonly string[]): Promise<AwaitingEntryItem[][]> {
  if (startTimes.length === 0) return [];
  const sorted = [...startTimes].sort();
  const span = { between: [matchWindow(sorted[0] as string).between[0], matchWindow(sorted.at(-1) as string).between[1]] as [string, string] };
  const list = keys.awaitingEntry.listByDevice(device.client, device.deviceReference);
  const page = await deps.table.query({ ...list, sort: span, limit: SPAN_MARKERS_MAX, consistent: true });
  if (page.lastKey !== undefined) return inParallel(startTimes, MARKER_READS_AT_ONCE, (startTime) => markersNear(deps, device, startTime));
  const markers = page.items.map(readAwaitingEntry);
  return startTimes.map((startTime) => {
    const [from, to] = matchWindow(startTime).between;
    return markers.filter((marker) => {
      const sort = keys.awaitingEntry.key(device.client, device.deviceReference, marker.payload_time, marker.payload_reference).sk;
      return sort >= from && sort <= to;
    });
  });
}

/** The recordings of this device waiting for an entry near its start time (one consistent Query). */
async function markersNear(deps: LedgerDependencies, device: UploadingDevice, startTime: string): Promise<AwaitingEntryItem[]> {
  const list = keys.awaitingEntry.listByDevice(device.client, device.deviceReference);
  return (await readAll(deps.table, { ...list, sort: matchWindow(startTime), consistent: true })).map(readAwaitingEntry);
}

/** The entry as first stored: the report's facts, the device and its holder now, its day and the end of its grace. */
function newEntry(device: UploadingDevice, holder: Holder, graceHours: number, entry: ReportedEntry, now: string): LedgerEntryItem {
  return {
    entry_id: entry.entry_id,
    payload_type: entry.payload_type,
    ...(entry.phone_number === undefined ? {} : { phone_number: entry.phone_number }),
    ...(entry.payload_type === 'Call' ? { duration: entry.duration } : { thread_id: entry.thread_id }),
    direction: entry.direction,
    start_time: entry.start_time,
    device_reference: device.deviceReference,
    ...(holder.deviceUserReference === undefined ? {} : { device_user_reference: holder.deviceUserReference }),
    ...(holder.group === undefined ? {} : { group: holder.group }),
    outcome: 'Pending',
    reported_at: now,
    outcome_at: now,
    due_at: dueAtOf(entry.start_time, entry.payload_type === 'Call' ? entry.duration : undefined, graceHours),
    day: dayOf(entry.start_time),
  };
}

/** An entry of the report as it will be stored: its report position, what was reported, and what is written. */
interface PlannedEntry {
  index: number;
  reported: ReportedEntry;
  entry: LedgerEntryItem;
  marker?: AwaitingEntryItem | undefined;
}

/** Marker Queries in flight at once. */
const MARKER_READS_AT_ONCE = 8;
/** DynamoDB's limit of writes in one transaction. */
const TRANSACTION_WRITES = 100;
/** Entries tried per transaction; fewer when their writes would pass TRANSACTION_WRITES. */
const ENTRIES_PER_BATCH = 40;

const markerId = (marker: AwaitingEntryItem) => `${marker.payload_time}#${marker.payload_reference}`;

/**
 * Each entry matched to a recording awaiting it, if one does. Pairs are taken nearest first (ties by entry then
 * recording reference) and each recording and entry once: one recording explains one entry, the nearest of a report's
 * entries that match it (a call and its redial both match the one recording), and a transaction names an item once.
 */
async function planEntries(
  deps: LedgerDependencies,
  device: UploadingDevice,
  entries: ReadonlyArray<{ index: number; reported: ReportedEntry; pending: LedgerEntryItem }>,
): Promise<PlannedEntry[]> {
  const nearby = await markersNearEach(deps, device, entries.map(({ reported }) => reported.start_time));
  const pairs = entries.flatMap(({ pending }, position) => {
    const facts = entryFactsOf(pending);
    return (nearby[position] ?? [])
      .map((marker) => ({ position, facts, marker, recording: recordingOfMarker(marker) }))
      .filter(({ recording }) => isMatch(facts, recording));
  });
  pairs.sort(
    (a, b) =>
      distanceOf(a.facts, a.recording) - distanceOf(b.facts, b.recording) ||
      byText(a.facts.reference, b.facts.reference) ||
      byText(a.marker.payload_reference, b.marker.payload_reference),
  );
  const chosen = new Map<number, AwaitingEntryItem>();
  const taken = new Set<string>();
  for (const { position, marker } of pairs) {
    if (chosen.has(position) || taken.has(markerId(marker))) continue;
    chosen.set(position, marker);
    taken.add(markerId(marker));
  }
  return entries.map(({ index, reported, pending }, position) => {
    const marker = chosen.get(position);
    return marker === undefined ? { index, reported, entry: pending } : { index, reported, entry: capturedEntry(pending, marker), marker };
  });
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The writes of a batch of entries: each entry's writes, and their counts merged per counter item. */
function batchOperations(client: string, batch: readonly PlannedEntry[]): TransactOperation[] {
  return [
    ...batch.flatMap(({ entry, marker }) => entryWrites(client, entry, marker)),
    ...counterOperations(client, batch.flatMap(({ entry, marker }) => entryMoves(entry, marker))),
  ];
}

/** The planned entries in batches whose writes fit one transaction. */
function batchesOf(client: string, planned: readonly PlannedEntry[]): PlannedEntry[][] {
  const batches: PlannedEntry[][] = [];
  const split = (batch: PlannedEntry[]) => {
    if (batch.length > 1 && batchOperations(client, batch).length > TRANSACTION_WRITES) {
      const half = Math.ceil(batch.length / 2);
      split(batch.slice(0, half));
      split(batch.slice(half));
    } else batches.push(batch);
  };
  for (let start = 0; start < planned.length; start += ENTRIES_PER_BATCH) split(planned.slice(start, start + ENTRIES_PER_BATCH));
  return batches;
}

/**
 * One batch in one transaction. When any of its conditions fails (a concurrent resend stored an entry, a marker was
 * taken or marked meanwhile), nothing of it is written and each of its entries is stored on its own, reading again.
 */
async function storeBatch(deps: LedgerDependencies, device: UploadingDevice, batch: readonly PlannedEntry[]): Promise<{ stored: number; already: number }> {
  try {
    await transactCounted(deps, batchOperations(device.client, batch));
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    let stored = 0;
    for (const { reported, index, entry } of batch) {
      if ((await storeEntry(deps, device, { entry: reported, index }, withoutMatch(entry))) === 'stored') stored += 1;
    }
    return { stored, already: batch.length - stored };
  }
  for (const { entry } of batch) await raisePendingGapAlert(deps, device.client, entry);
  return { stored: batch.length, already: 0 };
}

/** The entry as stored before any match (Pending, no recording): what storing it on its own starts from. */
function withoutMatch(entry: LedgerEntryItem): LedgerEntryItem {
  const { payload_reference: _recording, recording_duration: _length, is_intermittent: _intermittent, uploaded_at: _uploaded, alert_pending: _alert, ...pending } = entry;
  return { ...pending, outcome: 'Pending' };
}

/** One entry on its own: matched to a marker read again now, or Pending; retried when a marker is taken meanwhile. */
async function storeEntry(
  deps: LedgerDependencies,
  device: UploadingDevice,
  { entry: reported, index }: { entry: ReportedEntry; index: number },
  pending: LedgerEntryItem,
): Promise<'stored' | 'already'> {
  for (let attempt = 0; attempt < STORE_ATTEMPTS; attempt += 1) {
    const markers = await markersNear(deps, device, reported.start_time);
    const chosen = chooseRecording(entryFactsOf(pending), markers.map((marker) => ({ ...recordingOfMarker(marker), marker })));
    const entry = chosen === undefined ? pending : capturedEntry(pending, chosen.marker);
    try {
      await transactCounted(deps, [...entryWrites(device.client, entry, chosen?.marker), ...counterOperations(device.client, entryMoves(entry, chosen?.marker))]);
      await raisePendingGapAlert(deps, device.client, entry);
      return 'stored';
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
    // Either the entry exists now (a concurrent resend) or the marker was taken or marked meanwhile.
    const existing = await deps.table.get(keys.ledgerEntry.key(device.client, device.deviceReference, reported.entry_id), { consistent: true });
    if (existing !== undefined) {
      if (sameFacts(readLedgerEntry(existing), reported)) return 'already';
      throw new ConflictError(`meta.entries.${index}.entry_id: Already recorded with other facts`);
    }
  }
  throw new Error(`Ledger entry ${reported.entry_id} did not settle against its device's recordings`);
}

/** The entry matched to the recording a marker stands for, with that recording's outcome. */
function capturedEntry(pending: LedgerEntryItem, marker: AwaitingEntryItem): LedgerEntryItem {
  const recording = recordingOfMarker(marker);
  const outcome: LedgerOutcome = outcomeOfMatch(pending, recording);
  return { ...pending, ...capturedFields(recording), outcome, ...(outcome === 'Short' ? { alert_pending: true } : {}) };
}

/**
 * The entry's put (only if new) with its retention marker (CaptureLedgerData, counted from its start), and the delete
 * of the recording marker it consumes (only if still as read).
 */
function entryWrites(client: string, entry: LedgerEntryItem, marker: AwaitingEntryItem | undefined): TransactOperation[] {
  const item = ledgerEntryToItem(client, entry);
  return [
    { kind: 'put', item, condition: { kind: 'item-not-exists' } },
    ...dueMarkerPuts(client, item),
    ...(marker === undefined
      ? []
      : [
          {
            kind: 'delete' as const,
            key: keys.awaitingEntry.key(client, marker.device_reference, marker.payload_time, marker.payload_reference),
            condition: { kind: 'expression' as const, expression: 'attribute_exists(#pk) AND #u = :u', names: { '#pk': 'pk', '#u': 'unexpected' }, values: { ':u': marker.unexpected } },
          },
        ]),
  ];
}

/** What a new entry counts: one more expected and one of its outcome; one fewer Unexpected when it explains one. */
function entryMoves(entry: LedgerEntryItem, marker: AwaitingEntryItem | undefined): CountMove[] {
  return [entryStored(entry, entry.payload_type, entry.outcome), ...(marker?.unexpected === true ? [unexpectedChanged(marker, entry.payload_type, -1)] : [])];
}
