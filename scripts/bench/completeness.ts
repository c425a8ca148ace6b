import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { measureCapacity, type CapacityTotals } from '#core/ports/capacity-meter.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { awaitingEntryToItem } from '#core/store/entities/awaiting-entry.ts';
import { deviceToItem } from '#core/store/entities/device.ts';
import { ledgerEntryToItem, type LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import type { PayloadItem } from '#core/store/entities/payload.ts';
import { COMPLETENESS_GRACE_HOURS_DEFAULT } from '#shared/constants/completeness.ts';
import type { LedgerEntryReport } from '#shared/contract/entities/completeness.ts';
import { uploadLedger } from '../../lambdas/completeness/ledger/intake.ts';
import { reconcileProcessed } from '../../lambdas/completeness/reconcile/at-processing.ts';
import { counterOperations, entryStored, unexpectedChanged, type CountMove } from '../../lambdas/completeness/reconcile/counter-moves.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import { sealUpload } from '../../lambdas/device-crypto/envelope.ts';
import { LOCAL_CREDENTIALS } from '../local/dynamodb.ts';
import { startLocalStack } from '../local/stack.ts';
import { writeAll } from './capacity-seed.ts';
import { formatTable, median } from './measure.ts';

/**
 * `npm run bench -- completeness [--small n] [--large n] [--batch n]`: capture completeness reconciliation costs the same
 * per entry whatever a device's history (docs/completeness.md, "Reconciliation"). One device's history is written
 * straight into the table with the store's own item builders (default 1,000 and 100,000 ledger entries, matched to
 * their recordings, with 1 in 100 of the device's recordings left Unexpected, and the per-day counters they made), at
 * a steady 100 entries a day, so a larger history is a longer one, not a busier one. Then, at each size, a batch of new
 * calls and messages of the last day is reconciled through the real code, both ways round:
 * - recording first: processing's `reconcileProcessed` leaves an awaiting-entry marker for each recording, then the
 *   phone's sealed ledger report (`uploadLedger`, what `POST /device/v1/ledger` runs) matches each entry to its marker;
 * - entry first: the ledger report stores each entry Pending, then processing matches each recording to its entry.
 * Each step is timed and metered (DynamoDB's consumed capacity, lambdas/core/ports/capacity-meter.ts) and divided by
 * the entries or recordings it handled, over three rounds in which the sizes take turns to go first (after an
 * unmeasured warm-up), the time being the median round's. Aim: capacity per entry at the large size at most 1.2 × the
 * small one; the time is shown beside it (DynamoDB Local's, on a shared machine: noisier than the units).
 */

const DEFAULT_SMALL = 1_000;
const DEFAULT_LARGE = 100_000;
const DEFAULT_BATCH = 50;
/**
 * Rounds of measurement, the sizes taking turns to go first; a step's time is its median round. Each round's calls and
 * messages sit a third of the history's spacing after the last round's, so no two are ever within matching distance.
 */
const ROUNDS = 3;
const RATIO_AIM = 1.2;
/** A busy trader's phone: calls and messages a day (history spreads back at this rate). */
const ENTRIES_PER_DAY = 100;
/** Recordings of the history that no entry ever explained (left Unexpected). */
const UNEXPECTED_EVERY = 100;
const DAY_MS = 86_400_000;
const SPACING_MS = DAY_MS / ENTRIES_PER_DAY;

export interface CompletenessSizes {
  small: number;
  large: number;
  batch: number;
}

export function completenessSizes(args: readonly string[]): CompletenessSizes {
  const flag = (name: string, fallback: number, max: number) => {
    const index = args.indexOf(name);
    const value = Number(index >= 0 ? args[index + 1] : fallback);
    if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be a whole number from 1 to ${max.toLocaleString('en-GB')}`);
    return value;
  };
  // Two batches a round within the last day at the history's pace: at most half a day's entries each.
  return { small: flag('--small', DEFAULT_SMALL, 1_000_000), large: flag('--large', DEFAULT_LARGE, 1_000_000), batch: flag('--batch', DEFAULT_BATCH, ENTRIES_PER_DAY / 2) };
}

/** The one device a size's history belongs to, its holder and group. */
interface BenchDevice {
  client: string;
  deviceReference: string;
  deviceUserReference: string;
  group: string;
}

const numberOf = (index: number) => `+4477009${String(index % 100_000).padStart(5, '0')}`;
const iso = (ms: number) => new Date(ms).toISOString();

/** The i-th call or message of a history or batch: calls two in three, each way round, a few threads. */
function entryFacts(index: number, startMs: number): LedgerEntryReport {
  const direction = index % 2 === 0 ? 'O' : 'I';
  if (index % 3 !== 0) return { entry_id: `call-${index}`, payload_type: 'Call', phone_number: numberOf(index), direction, start_time: iso(startMs), duration: 60 + (index % 300) };
  return { entry_id: `msg-${index}`, payload_type: 'SMS', thread_id: `thread-${index % 7}`, phone_number: numberOf(index), direction, start_time: iso(startMs) };
}

/** A stored entry of the history: matched long ago to its recording, Captured. */
function historyEntry(device: BenchDevice, facts: LedgerEntryReport): LedgerEntryItem {
  const start = Date.parse(facts.start_time);
  const duration = facts.payload_type === 'Call' ? facts.duration : 0;
  return {
    ...facts,
    device_reference: device.deviceReference,
    device_user_reference: device.deviceUserReference,
    group: device.group,
    outcome: 'Captured',
    payload_reference: ulid(start),
    ...(facts.payload_type === 'Call' ? { recording_duration: duration } : {}),
    uploaded_at: iso(start + duration * 1000 + 60_000),
    reported_at: iso(start + 3_600_000),
    outcome_at: iso(start + 3_600_000),
    due_at: iso(start + (duration + COMPLETENESS_GRACE_HOURS_DEFAULT * 3600) * 1000),
    day: facts.start_time.slice(0, 10),
  };
}

const cutsOf = (device: BenchDevice, day: string) => ({
  day,
  device_reference: device.deviceReference,
  device_user_reference: device.deviceUserReference,
  group: device.group,
});

/** A day's counter updates written as the items they would have made (the ADDs of a day merged into one item each). */
function counterItems(client: string, moves: CountMove[]): TableItem[] {
  return counterOperations(client, moves).flatMap((operation) =>
    operation.kind === 'update' ? [{ ...operation.key, ...operation.update.set, ...operation.update.add } as TableItem] : [],
  );
}

/**
 * The device's history, oldest first, ending a day before `now`: `count` Captured entries, a recording left
 * Unexpected every UNEXPECTED_EVERY of them (between two entries, matching none), and each day's counter items.
 */
function* historyItems(device: BenchDevice, count: number, now: number): Generator<TableItem> {
  const first = now - DAY_MS - count * SPACING_MS;
  let day: string | undefined;
  let moves: CountMove[] = [];
  for (let index = 0; index < count; index += 1) {
    const entry = historyEntry(device, entryFacts(index, first + index * SPACING_MS));
    if (entry.day !== day) {
      if (moves.length > 0) yield* counterItems(device.client, moves);
      day = entry.day;
      moves = [];
    }
    yield ledgerEntryToItem(device.client, entry);
    moves.push(entryStored(cutsOf(device, entry.day), entry.payload_type, 'Captured'));
    if (index % UNEXPECTED_EVERY === UNEXPECTED_EVERY - 1) {
      const time = Date.parse(entry.start_time) + SPACING_MS / 2;
      const marker = {
        payload_reference: ulid(time),
        payload_type: 'Call' as const,
        payload_time: iso(time),
        device_reference: device.deviceReference,
        direction: 'O' as const,
        numbers: ['700900999'],
        recording_duration: 30,
        uploaded_at: iso(time + 60_000),
        device_user_reference: device.deviceUserReference,
        group: device.group,
        unexpected: true,
        unexpected_at: iso(time + 2 * DAY_MS),
        day: iso(time).slice(0, 10),
      };
      yield awaitingEntryToItem(device.client, marker);
      moves.push(unexpectedChanged(cutsOf(device, marker.day), 'Call', 1));
    }
  }
  if (moves.length > 0) yield* counterItems(device.client, moves);
}

/** The recording that captured `facts` (as processing hands it over: the stored item and its opened meta). */
function recordingOf(device: BenchDevice, facts: LedgerEntryReport, now: number): { payload: PayloadItem; meta: Record<string, unknown> } {
  const time = Date.parse(facts.start_time) + 2_000;
  const payload = {
    client: device.client,
    payload_reference: ulid(time),
    payload_type: facts.payload_type,
    payload_state: 'Scanning',
    payload_time: iso(time),
    device_reference: device.deviceReference,
    device_user_reference: device.deviceUserReference,
    group: device.group,
    is_legacy: false,
    is_late: false,
    uploaded_at: iso(now),
  } as PayloadItem;
  const meta =
    facts.payload_type === 'Call'
      ? { payload_time: iso(time), payload_full_duration: facts.duration, second_parties: [{ phone_number: facts.phone_number, direction: facts.direction, duration: facts.duration }] }
      : { payload_time: iso(time), direction: facts.direction, thread_id: facts.thread_id, message_parties: [{ phone_number: facts.phone_number }] };
  return { payload, meta };
}

/** The device as activation leaves it, held by the device user in the group. */
function deviceItem(device: BenchDevice, now: number): TableItem {
  return deviceToItem(device.client, {
    client: device.client,
    device_reference: device.deviceReference,
    device_user_reference: device.deviceUserReference,
    group: device.group,
    services: ['calls', 'sms'],
    imeis: ['356938035643809'],
    is_deactivated: false,
    is_legacy: false,
    phone_numbers: [{ phone_number: '+447700900001' }],
    activated_at: iso(now - 1000 * DAY_MS),
    model: 'Pixel 8',
    os_version: '14',
    app_version: '5.2.0',
    updated_at: iso(now),
    updated_by: 'bench',
  });
}

interface StepFigure {
  ms: number;
  capacity: CapacityTotals;
  items: number;
}

interface SizeFigures {
  /** The ledger report, matching each entry to a waiting recording. */
  intakeMatching: StepFigure;
  /** The ledger report, each entry stored Pending. */
  intakePending: StepFigure;
  /** Processing, each recording leaving a marker. */
  processingAwaiting: StepFigure;
  /** Processing, each recording matching its entry. */
  processingMatching: StepFigure;
  historySeconds: number;
  itemsWritten: number;
}

async function timedCapacity(items: number, work: () => Promise<void>): Promise<StepFigure> {
  const started = performance.now();
  const { capacity } = await measureCapacity(async () => work());
  return { ms: performance.now() - started, capacity, items };
}

type Steps = Omit<SizeFigures, 'historySeconds' | 'itemsWritten'>;

/**
 * Reconciles a batch of new calls and messages of the last day on `device`, both ways round, and measures each step;
 * `round` places them apart from other rounds' (times and ids).
 */
async function reconcileBatch(deps: Dependencies, device: BenchDevice, batch: number, now: number, round: number): Promise<Steps> {
  const keys = await deviceKeysOf(deps, device.client);
  const kek = { kek: keys.kek, client: device.client, keyId: keys.kekId };
  const uploading = { client: device.client, deviceReference: device.deviceReference };
  // New entries in the last day at the history's pace, ids of their own (above any history index).
  const fresh = (offset: number) =>
    Array.from({ length: batch }, (_, index) =>
      entryFacts(10_000_000 + round * 1_000 + offset + index, now - DAY_MS + (offset + index) * SPACING_MS + (round * SPACING_MS) / ROUNDS),
    );
  const report = (entries: LedgerEntryReport[]) => sealUpload(kek, 'ledger', { covered_to: iso(now), entries });
  const processAll = async (entries: LedgerEntryReport[], expected: string) => {
    for (const entry of entries) {
      const { payload, meta } = recordingOf(device, entry, now);
      const outcome = await reconcileProcessed(deps, device.client, payload, meta);
      if (outcome !== expected) throw new Error(`Recording of ${entry.entry_id} reconciled ${outcome}, expected ${expected}`);
    }
  };
  const ledger = async (entries: LedgerEntryReport[]) => {
    const answer = await uploadLedger(deps, uploading, report(entries));
    if (answer.accepted !== entries.length) throw new Error(`Ledger report took ${answer.accepted} of ${entries.length} entries`);
  };

  const recordingFirst = fresh(0);
  const processingAwaiting = await timedCapacity(batch, () => processAll(recordingFirst, 'awaiting'));
  const intakeMatching = await timedCapacity(batch, () => ledger(recordingFirst));
  const entryFirst = fresh(batch);
  const intakePending = await timedCapacity(batch, () => ledger(entryFirst));
  const processingMatching = await timedCapacity(batch, () => processAll(entryFirst, 'matched'));
  return { intakeMatching, intakePending, processingAwaiting, processingMatching };
}

/** A step over its rounds: capacity and items summed, time the median round's (times the rounds, so per item it is that round's). */
function combined(rounds: readonly StepFigure[]): StepFigure {
  const capacity = { ...(rounds[0] as StepFigure).capacity };
  for (const figure of rounds.slice(1)) for (const name of Object.keys(capacity) as Array<keyof CapacityTotals>) capacity[name] += figure.capacity[name];
  return { ms: median(rounds.map((figure) => figure.ms)) * rounds.length, capacity, items: rounds.reduce((sum, figure) => sum + figure.items, 0) };
}

const round = (value: number) => (Math.round(value * 100) / 100).toString();
const units = (capacity: CapacityTotals) => capacity.readUnits + capacity.writeUnits;

function rows(small: SizeFigures, large: SizeFigures): string[][] {
  const steps: Array<[string, keyof Omit<SizeFigures, 'historySeconds' | 'itemsWritten'>]> = [
    ['ledger report, entry matches a waiting recording', 'intakeMatching'],
    ['ledger report, entry stored Pending', 'intakePending'],
    ['processing, recording waits for its entry', 'processingAwaiting'],
    ['processing, recording matches its entry', 'processingMatching'],
  ];
  return steps.map(([label, step]) => {
    const a = small[step];
    const b = large[step];
    const perItem = (figure: StepFigure) => `${round(figure.capacity.readUnits / figure.items)} R + ${round(figure.capacity.writeUnits / figure.items)} W`;
    const ratio = units(b.capacity) / Math.max(Number.EPSILON, units(a.capacity));
    return [
      label,
      perItem(a),
      perItem(b),
      `${round(ratio)} ${ratio <= RATIO_AIM ? 'ok' : 'MISS'}`,
      `${round(a.ms / a.items)} / ${round(b.ms / b.items)}`,
      round(b.ms / a.ms),
      `${round(a.capacity.itemsRead / a.items)} / ${round(b.capacity.itemsRead / b.items)}`,
      `${round(a.capacity.itemsWritten / a.items)} / ${round(b.capacity.itemsWritten / b.items)}`,
      `${round(a.capacity.calls / a.items)} / ${round(b.capacity.calls / b.items)}`,
    ];
  });
}

export async function benchCompleteness(sizes: CompletenessSizes, log: (line: string) => void = console.log): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verity-bench-completeness-'));
  const stack = await startLocalStack({ dataDir, port: 0, quiet: true, inMemoryDynamo: true });
  try {
    const deps = buildDependencies(loadConfig({ ...stack.env, LOG_LEVEL: 'error' }));
    const documents = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: stack.dynamoEndpoint, region: stack.env.AWS_REGION, credentials: LOCAL_CREDENTIALS }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
    const now = Date.now();
    const devices: Partial<Record<'small' | 'large', BenchDevice>> = {};
    const seeded: Partial<Record<'small' | 'large', Pick<SizeFigures, 'historySeconds' | 'itemsWritten'>>> = {};
    for (const [size, client] of [['small', 'demo'], ['large', 'acme']] as const) {
      const device: BenchDevice = { client, deviceReference: ulid(), deviceUserReference: `du-bench-${size}`, group: 'bench-desk' };
      await deps.table.put(deviceItem(device, now));
      const started = performance.now();
      const itemsWritten = await writeAll(documents, stack.env.TABLE_NAME, historyItems(device, sizes[size], now), (written) =>
        log(`  ${client}: ${written.toLocaleString('en-GB')} items written`),
      );
      const historySeconds = (performance.now() - started) / 1000;
      log(`Seeded ${client}: ${sizes[size].toLocaleString('en-GB')} ledger entries of one device (${itemsWritten.toLocaleString('en-GB')} items) in ${historySeconds.toFixed(1)} s`);
      // Once unmeasured on a device of its own: the first report and recording warm the caches (keys, settings).
      const warm: BenchDevice = { ...device, deviceReference: ulid() };
      await deps.table.put(deviceItem(warm, now));
      await reconcileBatch(deps, warm, 5, now, 0);
      devices[size] = device;
      seeded[size] = { historySeconds, itemsWritten };
    }
    const measured: Record<'small' | 'large', Steps[]> = { small: [], large: [] };
    for (let turn = 0; turn < ROUNDS; turn += 1) {
      for (const size of turn % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const)) {
        measured[size].push(await reconcileBatch(deps, devices[size] as BenchDevice, sizes.batch, now, turn));
      }
    }
    const over = (size: 'small' | 'large'): SizeFigures => ({
      intakeMatching: combined(measured[size].map((steps) => steps.intakeMatching)),
      intakePending: combined(measured[size].map((steps) => steps.intakePending)),
      processingAwaiting: combined(measured[size].map((steps) => steps.processingAwaiting)),
      processingMatching: combined(measured[size].map((steps) => steps.processingMatching)),
      ...(seeded[size] as Pick<SizeFigures, 'historySeconds' | 'itemsWritten'>),
    });
    const [small, large] = [over('small'), over('large')];
    const header = [
      `per entry or recording (${ROUNDS} batches of ${sizes.batch})`,
      `@ ${sizes.small.toLocaleString('en-GB')}`,
      `@ ${sizes.large.toLocaleString('en-GB')}`,
      `capacity large/small (aim ≤ ${RATIO_AIM})`,
      'ms each small / large',
      'time large/small',
      'items read each',
      'items written each',
      'table calls each',
    ];
    return [
      'Capture completeness reconciliation against one device\'s history (R = read units, W = write units, as DynamoDB Local reports them):',
      formatTable(header, rows(small, large)),
      '',
      'DynamoDB Local reports a transaction\'s writes at the plain rate (AWS bills them twice) and an empty Query as 0 R (AWS: half a unit).',
      `Times are DynamoDB Local's on this machine, each the median of ${ROUNDS} rounds; history written in ${small.historySeconds.toFixed(0)} s and ${large.historySeconds.toFixed(0)} s.`,
    ].join('\n');
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
