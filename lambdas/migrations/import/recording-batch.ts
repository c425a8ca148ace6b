import { ItemTooLargeError, UnstorableNumberError } from '../../core/errors.ts';
import { ConditionFailedError, type ItemKey, type TransactOperation } from '../../core/ports/table-store.ts';
import { readDeviceHolder } from '../../core/store/entities/device.ts';
import type { PayloadItem } from '../../core/store/entities/payload.ts';
import { keys } from '../../core/store/keys.ts';
import type { RecordingRow } from '../format/index.ts';
import { batchReads } from './batch-reads.ts';
import { results, type ImportContext } from './context.ts';
import { inParallel } from '../../core/in-parallel.ts';
import { keepMedia, legacyPayloadReference, scanMedia, STORE_CONCURRENCY } from './recording-store.ts';
import { createdResult, importLoadedRecording, newRecordingOperations, planRecording, recordingKeys, recordingUserOf, withMedia } from './recordings.ts';
import type { RowResult } from './results.ts';

/** A transaction holds at most this many writes (DynamoDB's limit). */
const MAX_TRANSACTION_WRITES = 100;
/** Transactions of one batch written at once (their items are distinct: they never contend). */
const WRITE_CONCURRENCY = 4;

export interface RecordingEntry {
  row: number;
  value: RecordingRow;
}

/** What the row importer answers for one row on its own (a change meanwhile, a write DynamoDB refuses for that row). */
const isRowsOwn = (error: unknown) => error instanceof ConditionFailedError || error instanceof ItemTooLargeError || error instanceof UnstorableNumberError;

/** A recording planned new, on its way to be written. */
type Creation = { index: number; item: PayloadItem; media?: Buffer };

/**
 * Imports consecutive recording rows together, each row judged as on its own (recordings.ts, `planRecording`) and
 * ending in the same one result, but with the round trips of a batch instead of a row's:
 * - what the rows name (devices, payloads, device users, the retention policy, legal holds) is read with BatchGet, in
 *   two rounds (the rows' own keys, then the users their devices name and their holds);
 * - the media of the new recordings are scanned together (one wait for the scanner's verdicts) and written with
 *   bounded concurrency;
 * - the new recordings are put with their due markers in transactions of up to 100 writes, a row's writes never
 *   split; should a condition fail (a recording written meanwhile), each row of that transaction is imported again
 *   on its own (`alone`), which judges it against what is there now;
 * - the counts go to the metrics batch as one row's would.
 * Rows of a batch never write the same item: a second row of a recording already in the batch (a conference call's
 * next leg) is imported on its own once the batch is written, as it would be after the first in file order. A row
 * whose recording is loaded already is judged and written on its own at once (its writes are conditional on what was
 * read), and so is any row whose judging meets a change meanwhile.
 */
export async function importRecordingBatch(
  contextOf: (row: number) => ImportContext,
  entries: readonly RecordingEntry[],
  alone: (entry: RecordingEntry) => Promise<RowResult>,
): Promise<RowResult[]> {
  if (entries.length === 0) return [];
  const base = contextOf(entries[0]?.row ?? 0);
  const { client, deps } = base;
  const answers = new Array<RowResult | undefined>(entries.length);

  // Reads: the rows' keys first, then the users they come to and the holds on them.
  const reads = batchReads(deps.table);
  await reads.read([
    keys.retentionPolicy.key(client),
    ...entries.flatMap(({ value }) => [
      ...recordingKeys(client, value),
      ...(value.device_user_reference === undefined ? [] : [keys.deviceUser.key(client, value.device_user_reference)]),
    ]),
  ]);
  const users = new Set<string>();
  for (const { value } of entries) {
    const device = reads.item(keys.device.key(client, value.device_reference));
    const user = recordingUserOf(value, device);
    const holder = device === undefined ? undefined : readDeviceHolder(device).device_user_reference;
    if (user !== undefined) users.add(user);
    if (holder !== undefined) users.add(holder);
  }
  await reads.read([...users].flatMap((user) => [keys.deviceUser.key(client, user), keys.legalHold.key(client, 'DeviceUser', user)]));

  // Judging, in file order. A recording met twice waits for the batch's writes (its first row may create it).
  const seen = new Set<string>();
  const later: number[] = [];
  const creations: Creation[] = [];
  for (const [index, entry] of entries.entries()) {
    const payloadReference = legacyPayloadReference(client, entry.value.legacy_payload_reference);
    if (seen.has(payloadReference)) {
      later.push(index);
      continue;
    }
    seen.add(payloadReference);
    const context = contextOf(entry.row);
    try {
      const plan = await planRecording(context, entry.value, (key: ItemKey) => reads.table.get(key));
      if (plan.kind === 'done') answers[index] = plan.result;
      else if (plan.kind === 'loaded') answers[index] = await importLoadedRecording(context, entry.value, plan.existing, plan.holder);
      else creations.push({ index, item: plan.item, ...(plan.media === undefined ? {} : { media: plan.media }) });
    } catch (error) {
      if (!isRowsOwn(error)) throw error;
      answers[index] = await alone(entry);
    }
  }

  // Media: scanned together, then kept (the lock and holds read from the batch).
  const withBytes = creations.filter((creation): creation is Creation & { media: Buffer } => creation.media !== undefined);
  const refusals = await scanMedia(base, withBytes.map(({ item, media }) => ({ item, bytes: media })));
  const batchContext = (row: number): ImportContext => ({ ...contextOf(row), deps: { ...deps, table: reads.table } });
  const toWrite: Creation[] = creations.filter((creation) => creation.media === undefined);
  const kept = await inParallel(withBytes, STORE_CONCURRENCY, async (creation, at) => {
    const refused = refusals[at];
    const entry = entries[creation.index] as RecordingEntry;
    if (refused !== undefined) {
      answers[creation.index] = results.error(contextOf(entry.row), { entity: 'Payload', type: 'Error', reference: entry.value.legacy_payload_reference }, refused);
      return undefined;
    }
    const context = batchContext(entry.row);
    return { ...creation, item: withMedia(context, creation.item, await keepMedia(context, creation.item, creation.media)) };
  });
  for (const creation of kept) if (creation !== undefined) toWrite.push(creation);
  toWrite.sort((a, b) => a.index - b.index);

  // Writes: each recording with its markers, whole rows per transaction.
  const transactions: Array<{ creations: Creation[]; operations: TransactOperation[] }> = [];
  for (const creation of toWrite) {
    const operations = newRecordingOperations(contextOf((entries[creation.index] as RecordingEntry).row), creation.item);
    const last = transactions.at(-1);
    if (last !== undefined && last.operations.length + operations.length <= MAX_TRANSACTION_WRITES) {
      last.creations.push(creation);
      last.operations.push(...operations);
    } else transactions.push({ creations: [creation], operations });
  }
  await inParallel(transactions, WRITE_CONCURRENCY, async ({ creations: written, operations }) => {
    try {
      await deps.table.transactWrite(operations);
    } catch (error) {
      if (!isRowsOwn(error)) throw error;
      for (const creation of written) answers[creation.index] = await alone(entries[creation.index] as RecordingEntry);
      return;
    }
    for (const creation of written) {
      const entry = entries[creation.index] as RecordingEntry;
      await base.metrics.add(creation.item);
      answers[creation.index] = createdResult(contextOf(entry.row), entry.value, creation.item);
    }
  });

  for (const index of later) answers[index] = await alone(entries[index] as RecordingEntry);
  return answers.map((answer, index) => {
    if (answer === undefined) throw new Error(`Row ${entries[index]?.row ?? '?'} of a recording batch has no result`);
    return answer;
  });
}
