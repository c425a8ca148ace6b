import { ulid } from 'ulid';
import * as z from 'zod';
import { ClientId } from '#shared/contract/fields.ts';
import { inParallel } from '#core/in-parallel.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { pendingTransfer, readTransfer, readTransferWatermark, type TransferItem } from '#core/store/entities/transfer.ts';
import { readRunningJob } from '#core/store/entities/running-job.ts';
import { readTransferConfig, type TransferConfigItem } from '#core/store/entities/transfer-config.ts';
import { readTransferFile, type TransferFileItem } from '#core/store/entities/transfer-file.ts';
import { keys } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { openSecret } from '../configs/secrets.ts';
import { TRANSFER_JOB } from '../configs/schedules.ts';
import { DeliveryError, openDestination, type Destination } from '../delivery/index.ts';
import { parsePgpPublicKey } from '../packaging/index.ts';
import { ensureClosingFiles, finishTransfer, MANIFEST_FILES, manifestText, REPORT_FILES, type TransferEnding } from './closing.ts';
import { DestinationUnavailableError, holdsLease, LeaseLostError, outOfBudget, type DestinationOpener, type JobLimits, type RunContext, type TransferJobDependencies } from './context.ts';
import { deliverFile } from './deliver-file.ts';
import { fileWriter } from './file-writes.ts';
import { prepareGenerated, prepareRecording, reportCsv, reportJsonLines } from './prepare.ts';
import { selectPayloads } from './selection.ts';
import { jobBudgetMs, leaseUntil, renewMarkerOperation } from '../../jobs/public.ts';
import { recordPendingTransfer, trackedTransfer } from '../runs/tracking.ts';

/**
 * Files delivered at the same time, per destination (one SFTP connection, one S3 client per invocation). A small file
 * spends most of its time waiting for round trips (the receiver's answers, the table's), which several at once
 * overlap; each file in flight holds its packaging's buffers and about 2 MiB of writes, so a few large ones stay
 * well inside the function's memory. FILES_AT_ONCE_MOST bounds what an input may ask.
 */
export const FILES_AT_ONCE = 8;
const FILES_AT_ONCE_MOST = 32;

/**
 * The `transfer` job's input: from a run now or a re-run (`transfer_id` of the Pending transfer recorded first), from
 * a schedule (no `transfer_id`: the job records the transfer), or from itself handing over (`lease_id`: the lease it
 * passed on). `budget_ms`, `max_files`, `files_at_once`, `max_attempts` and `backoff_ms` bound one invocation (tests
 * force hand-overs, retries and one file at a time with them; they travel with each hand-over).
 */
export const TransferJobInput = z.object({
  client: ClientId,
  transfer_config_reference: z.string().min(1).optional(),
  transfer_id: z.string().min(1).max(64).optional(),
  trigger: z.string().optional(),
  lease_id: z.string().optional(),
  budget_ms: z.int().positive().optional(),
  max_files: z.int().positive().optional(),
  files_at_once: z.int().min(1).max(FILES_AT_ONCE_MOST).optional(),
  max_attempts: z.int().min(1).max(20).optional(),
  backoff_ms: z.int().min(0).optional(),
});
export type TransferJobInput = z.infer<typeof TransferJobInput>;

/**
 * How one invocation works by default. Its budget is LONG_JOB_BUDGET_SECONDS (4 minutes: the transfer jobs function's
 * timeout is 5), and its lease outlives the budget by LONG_JOB_LEASE_MARGIN_SECONDS: an invocation past it has died.
 */
const DEFAULT_LIMITS: Omit<JobLimits, 'budgetMs'> = { maxFiles: Number.MAX_SAFE_INTEGER, filesAtOnce: FILES_AT_ONCE, maxAttempts: 5, backoffMs: 2_000, maxBackoffMs: 60_000 };

export interface TransferJobOptions {
  /** Opens the destination (default: the delivery module's `openDestination` with the job's config and logger). */
  openDestination?: DestinationOpener;
}

/**
 * The `transfer` job (docs/decisions.md, "Transfers"): Pending → InProgress → Succeeded / PartialFail / Failed.
 * It claims the transfer's lease, chooses the payloads (checkpointed page by page), delivers each recording (or the
 * Vantage report) with retries, then the manifests, and finishes. Before its budget ends it hands the lease and the
 * transfer to a fresh invocation through the JobRunner port; a crashed invocation's lease runs out and a re-run
 * resumes from the files' states. Nothing is delivered twice under one name.
 */
export async function transferJob(deps: TransferJobDependencies, rawInput: Record<string, unknown>, options: TransferJobOptions = {}): Promise<Record<string, unknown>> {
  const input = TransferJobInput.parse(rawInput);
  const limits: JobLimits = {
    ...DEFAULT_LIMITS,
    budgetMs: input.budget_ms ?? jobBudgetMs(deps.config),
    ...(input.max_files === undefined ? {} : { maxFiles: input.max_files }),
    ...(input.files_at_once === undefined ? {} : { filesAtOnce: input.files_at_once }),
    ...(input.max_attempts === undefined ? {} : { maxAttempts: input.max_attempts }),
    ...(input.backoff_ms === undefined ? {} : { backoffMs: input.backoff_ms }),
  };
  const started = performance.now();
  const scheduled = input.transfer_id === undefined ? await recordScheduledTransfer(deps, input) : { transferId: input.transfer_id };
  if ('skipped' in scheduled) return { skipped: scheduled.skipped, ...(scheduled.running === undefined ? {} : { transfer_id: scheduled.running }) };
  const { transferId } = scheduled;

  const leaseId = ulid();
  const transfer = await claimLease(deps, input, { transferId, leaseId, budgetMs: limits.budgetMs });
  if (transfer === undefined) return { transfer_id: transferId, skipped: 'finished, missing, or being delivered by another invocation' };

  const ending: TransferEnding = { deps, client: input.client, transferId, leaseId };
  const config = await loadTransferConfig(deps, input.client, transfer.transfer_config_reference);
  let destination: Destination | undefined;
  try {
    // Deleted after this transfer was recorded: nothing can be packaged or delivered, so the transfer ends Failed
    // saying so (with its TransferAlert), as a scheduled run of a deleted configuration is skipped before it starts.
    if (config === undefined) return { transfer_id: transferId, transfer_state: await finishTransfer(ending, CONFIG_DELETED) };
    let opening: Promise<Destination> | undefined;
    const context: RunContext = {
      ...ending,
      config,
      limits,
      deadline: started + limits.budgetMs,
      filesHandled: 0,
      payloadsRead: new Map(),
      writeFile: fileWriter(deps.table, { key: keys.transfer.key(input.client, transferId), condition: holdsLease(leaseId) }),
      destination: async () => {
        // Opened once per invocation; a failure is kept, so the files that follow do not each try again.
        opening ??= openWithRetries(context, options.openDestination ?? defaultOpener(deps)).then(
          (opened) => (destination = opened),
          (error: unknown) => {
            throw new DestinationUnavailableError(`The destination could not be opened: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
          },
        );
        return opening;
      },
    };
    const problem = await unsealForPackaging(context);
    if (problem !== undefined) return { transfer_id: transferId, transfer_state: await finishTransfer(context, problem) };
    const outcome = await work(context, transfer);
    if (outcome === 'handed-over') {
      await handOver(context, input);
      return { transfer_id: transferId, handed_over: true, files_handled: context.filesHandled };
    }
    return { transfer_id: transferId, transfer_state: outcome, files_handled: context.filesHandled };
  } catch (error) {
    if (error instanceof LeaseLostError) return { transfer_id: transferId, stopped: error.message };
    if (error instanceof DestinationUnavailableError) return { transfer_id: transferId, transfer_state: await finishTransfer(ending, error.message) };
    throw error;
  } finally {
    await destination?.close().catch((error: unknown) => deps.logger.warn('transfer destination did not close', { error: String(error) }));
  }
}

/** The job's phases, each resumable: choose, deliver the carried files, close (manifests or report), finish. */
async function work(context: RunContext, transfer: TransferItem): Promise<'handed-over' | Awaited<ReturnType<typeof finishTransfer>>> {
  const { deps, client } = context;
  const rerunOf = transfer.rerun_of === undefined ? undefined : await loadOptional(context, transfer.rerun_of);
  if (!(await selectPayloads(context, transfer, rerunOf))) return 'handed-over';
  const vantage = context.config.transfer_type === 'Vantage';
  if (vantage) await ensureClosingFiles(context, REPORT_FILES, 'Report');

  if (!(await deliverPending(context, '1'))) return 'handed-over';
  const stored = await deps.table.get(keys.transfer.key(client, context.transferId), { consistent: true });
  if (stored === undefined) throw new LeaseLostError('The transfer is gone');
  const after = readTransfer(stored);
  // Manifests describe what arrived: written when a recording arrived, or when there was nothing to carry.
  const carried = after.files_total ?? 0;
  if (!vantage && ((after.files_done ?? 0) > 0 || carried === 0)) {
    await ensureClosingFiles(context, MANIFEST_FILES, 'Manifest');
    if (!(await deliverPending(context, '9'))) return 'handed-over';
  }
  return finishTransfer(context);
}

/**
 * Delivers the Pending files of one order, `filesAtOnce` at a time, page by page; false when the budget ran out
 * first. A file is started only while the budget allows it with the files under way counted. A lost lease or a
 * destination that cannot be opened stops the starting of files; those under way end before it is thrown.
 */
async function deliverPending(context: RunContext, order: '1' | '9'): Promise<boolean> {
  const list = keys.transferFile.list(context.client, context.transferId, order);
  let inFlight = 0;
  let stopped = false;
  for await (const page of eachPage(context.deps.table, { ...list, consistent: true }, PAGE_OF_FILES)) {
    const pending = page.map(readTransferFile).filter((file) => file.file_state === 'Pending');
    await readPayloadsAhead(context, pending);
    await inParallel(pending, context.limits.filesAtOnce, async (file) => {
      if (stopped || outOfBudget(context, inFlight)) {
        stopped = true;
        return;
      }
      inFlight += 1;
      try {
        await deliverFile(context, file, (current) => prepareOf(context, current));
      } finally {
        inFlight -= 1;
      }
    });
    if (stopped) return false;
  }
  return true;
}

/**
 * The payload items of a page's recordings in one BatchGet (consistent, as each file's own read was), rather than one
 * GetItem per file: a payload missing here is read again by its file, which then fails as a recording that is gone.
 */
async function readPayloadsAhead(context: RunContext, files: readonly TransferFileItem[]): Promise<void> {
  const references = files.filter((file) => file.file_kind === 'Recording' && file.payload_reference !== undefined).map((file) => file.payload_reference as string);
  if (references.length === 0) return;
  const items = await context.deps.table.batchGet(
    references.map((reference) => keys.payload.key(context.client, reference)),
    { consistent: true },
  );
  for (const item of items) if (typeof item.payload_reference === 'string') context.payloadsRead.set(item.payload_reference, item);
}

/** Files read per page of the transfer's partition: enough to keep FILES_AT_ONCE busy between pages. */
const PAGE_OF_FILES = 100;

function prepareOf(context: RunContext, file: TransferFileItem) {
  if (file.file_kind === 'Recording') return prepareRecording(context, file);
  if (file.file_kind === 'Report') {
    const body = file.name === 'report.csv' ? () => reportCsv(context) : () => reportJsonLines(context);
    return prepareGenerated(context, file.name, body, { zipLikeRecordings: true });
  }
  const format = file.name.endsWith('.csv') ? 'csv' : 'json';
  return prepareGenerated(
    context,
    file.name,
    async function* () {
      yield Buffer.from(await manifestText(context, format));
    },
    { zipLikeRecordings: false },
  );
}

async function loadOptional(context: RunContext, transferId: string): Promise<TransferItem | undefined> {
  const item = await context.deps.table.get(keys.transfer.key(context.client, transferId), { consistent: true });
  return item === undefined ? undefined : readTransfer(item);
}

const CONFIG_MISSING = 'the configuration is missing or inactive';
/** A recorded transfer's end when its configuration was deleted before the job ran it (its `error_message`). */
export const CONFIG_DELETED = 'The transfer configuration no longer exists';
export const EARLIER_RUN_DELIVERING = 'an earlier run of this configuration is still being delivered: it moves the watermark, and the next scheduled run carries on from there';

/**
 * A scheduled run: records its Pending transfer (as run now does), unless the configuration is gone or inactive, or an
 * earlier run of the configuration has not ended. That run's window ends where this one's would start only once it
 * succeeds (the watermark moves then), so a second run now would carry its recordings again. Instead this run waits
 * for it (skips, while it is being delivered: its success moves the watermark and the next scheduled run starts
 * there) or carries on from it (takes it over, when its lease has run out: its invocation died).
 */
async function recordScheduledTransfer(deps: TransferJobDependencies, input: TransferJobInput): Promise<{ transferId: string } | { skipped: string; running?: string }> {
  if (input.transfer_config_reference === undefined) return { skipped: CONFIG_MISSING };
  const config = await loadTransferConfig(deps, input.client, input.transfer_config_reference);
  if (config === undefined || !config.is_active) return { skipped: CONFIG_MISSING };
  const now = deps.clock.now();
  const earlier = await unfinishedRun(deps, input.client, config.transfer_config_reference);
  if (earlier !== undefined) {
    if (earlier.leaseUntil > now.toISOString()) return { skipped: EARLIER_RUN_DELIVERING, running: earlier.transferId };
    return { transferId: earlier.transferId };
  }
  const transfer = pendingTransfer(input.client, config, { now, startedBy: input.trigger === 'schedule' ? 'schedule' : `job:${TRANSFER_JOB}` });
  await recordPendingTransfer(deps, transfer, limitsOf(input));
  return { transferId: transfer.transfer_id };
}

/** The configuration's run that has not ended (its running-job marker is there), from the tenant's running transfers. */
async function unfinishedRun(deps: TransferJobDependencies, client: string, configReference: string): Promise<{ transferId: string; leaseUntil: string } | undefined> {
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.table.query({ ...keys.runningJob.list(client, 'transfer'), consistent: true, limit: 100, ...(startKey === undefined ? {} : { startKey }) });
    for (const marker of page.items.map(readRunningJob)) {
      if (marker.input.transfer_config_reference === configReference) return { transferId: marker.id, leaseUntil: marker.lease_until };
    }
    startKey = page.lastKey;
  } while (startKey !== undefined);
  return undefined;
}

/** The bounds a test gave the job, which its hand-overs and resumptions keep. */
function limitsOf(input: TransferJobInput): Record<string, unknown> {
  const { budget_ms, max_files, files_at_once, max_attempts, backoff_ms } = input;
  return Object.fromEntries(Object.entries({ budget_ms, max_files, files_at_once, max_attempts, backoff_ms }).filter(([, value]) => value !== undefined));
}

/**
 * Takes the transfer for this invocation: only a Pending or InProgress one, and only when no live lease holds it (or
 * the previous invocation handed this one its lease). Sets InProgress, `started_at` the first time, and the report
 * window the first time (`report_to` = when the transfer was created, `report_from` = the configuration's watermark).
 * The running-job marker's lease is renewed with the transfer's in the same transaction, so the job-sweep sees the
 * lease this invocation holds.
 */
async function claimLease(
  deps: TransferJobDependencies,
  input: TransferJobInput,
  { transferId, leaseId, budgetMs }: { transferId: string; leaseId: string; budgetMs: number },
): Promise<TransferItem | undefined> {
  const { client, lease_id: handedLease } = input;
  const key = keys.transfer.key(client, transferId);
  const stored = await deps.table.get(key, { consistent: true });
  if (stored === undefined) return undefined;
  const transfer = readTransfer(stored);
  if (transfer.transfer_state !== 'Pending' && transfer.transfer_state !== 'InProgress') return undefined;
  const now = deps.clock.now();
  const window = transfer.report_to === undefined && transfer.rerun_of === undefined ? await reportWindow(deps, client, transfer) : {};
  const until = leaseUntil(deps.config, now, budgetMs);
  try {
    await deps.table.transactWrite([
      {
        kind: 'update',
        key,
        update: {
          set: {
            transfer_state: 'InProgress',
            lease_id: leaseId,
            lease_until: until.toISOString(),
            progress_at: now.toISOString(),
            ...(transfer.started_at === undefined ? { started_at: now.toISOString() } : {}),
            ...window,
          },
          add: { invocations: 1 },
        },
        condition: {
          kind: 'expression',
          expression:
            '#state IN (:pending, :running) AND (attribute_not_exists(#until) OR #until < :now' + (handedLease === undefined ? ')' : ' OR #lease = :handed)'),
          names: { '#state': 'transfer_state', '#until': 'lease_until', ...(handedLease === undefined ? {} : { '#lease': 'lease_id' }) },
          values: { ':pending': 'Pending', ':running': 'InProgress', ':now': now.toISOString(), ...(handedLease === undefined ? {} : { ':handed': handedLease }) },
        },
      },
      renewMarkerOperation(trackedTransfer(client, transferId, transfer.transfer_config_reference, limitsOf(input)), until),
    ]);
    const updated = await deps.table.get(key, { consistent: true });
    return updated === undefined ? undefined : readTransfer(updated);
  } catch (error) {
    if (error instanceof ConditionFailedError) return undefined;
    throw error;
  }
}

/** The first run's window: what was processed after the configuration's last Succeeded transfer, up to its creation. */
async function reportWindow(deps: TransferJobDependencies, client: string, transfer: TransferItem): Promise<{ report_from?: string; report_to: string }> {
  const mark = await deps.table.get(keys.transferWatermark.key(client, transfer.transfer_config_reference), { consistent: true });
  const from = mark === undefined ? undefined : readTransferWatermark(mark).report_to;
  return { ...(from === undefined ? {} : { report_from: from }), report_to: transfer.created_at };
}

/**
 * Hands the transfer to a fresh invocation: the lease passes to a new id named in the next invocation's input (so
 * the next can claim it while this one's lease is still live), then the job is started. If the start fails, the
 * lease is let go so a re-run can resume at once.
 */
async function handOver(context: RunContext, input: TransferJobInput): Promise<void> {
  const { deps, client, transferId } = context;
  const next = ulid();
  await deps.table.update(
    keys.transfer.key(client, transferId),
    { set: { lease_id: next } },
    { condition: { kind: 'expression', expression: '#lease = :lease', names: { '#lease': 'lease_id' }, values: { ':lease': context.leaseId } } },
  );
  try {
    await deps.jobs.start(TRANSFER_JOB, { ...input, transfer_id: transferId, lease_id: next, trigger: 'continue' });
  } catch (error) {
    deps.logger.error('transfer job could not hand over; a re-run resumes it', { client, transfer_id: transferId, error: String(error) });
    await deps.table.update(keys.transfer.key(client, transferId), { remove: ['lease_id', 'lease_until'] }, {
      condition: { kind: 'expression', expression: '#lease = :lease', names: { '#lease': 'lease_id' }, values: { ':lease': next } },
    });
  }
}

/** The zip password and the PGP key's fingerprint; a problem (a secret that does not open) fails the transfer. */
async function unsealForPackaging(context: RunContext): Promise<string | undefined> {
  const { config } = context;
  if (config.pgp_key !== undefined) {
    try {
      context.pgpFingerprint = (await parsePgpPublicKey(config.pgp_key)).fingerprint;
    } catch (error) {
      return `pgp_key: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  if (config.transfer_file_format !== 'ZippedWithPassword') return undefined;
  if (config.sealed_zip_password === undefined) return 'secured_data.zip_password: not set';
  try {
    context.zipPassword = await openSecret(context.deps, { client: context.client, configReference: config.transfer_config_reference, field: 'zip_password' }, config.sealed_zip_password);
  } catch (error) {
    return `secured_data.zip_password: could not be unsealed (${error instanceof Error ? error.message : String(error)})`;
  }
  return undefined;
}

/**
 * The configuration as stored now (read here rather than through the configuration service, whose module also
 * schedules: the transfer jobs function is not wired with the Scheduler port).
 */
async function loadTransferConfig(deps: TransferJobDependencies, client: string, reference: string): Promise<TransferConfigItem | undefined> {
  const item = await deps.table.get(keys.transferConfig.key(client, reference), { consistent: true });
  return item === undefined ? undefined : readTransferConfig(item);
}

function defaultOpener(deps: TransferJobDependencies): DestinationOpener {
  return (config, secrets) => openDestination({ config: deps.config, logger: deps.logger }, config, secrets);
}

/** Opens the destination, retrying what may pass (a refused connection, a timeout) with the files' backoff. */
async function openWithRetries(context: RunContext, open: DestinationOpener): Promise<Destination> {
  const { config } = context;
  const secrets: { sftpPassword?: string } = {};
  if (config.target_type === 'SFTP' && config.sealed_sftp_password !== undefined) {
    secrets.sftpPassword = await openSecret(context.deps, { client: context.client, configReference: config.transfer_config_reference, field: 'sftp_password' }, config.sealed_sftp_password);
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await open(config, secrets);
    } catch (error) {
      const retryable = !(error instanceof DeliveryError) || error.retryable;
      if (!retryable || attempt >= context.limits.maxAttempts) {
        throw error instanceof DeliveryError ? error : new DeliveryError(error instanceof Error ? error.message : String(error), { retryable: false, cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(context.limits.backoffMs * 2 ** (attempt - 1), context.limits.maxBackoffMs)));
    }
  }
}
