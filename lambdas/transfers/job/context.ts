import type { Dependencies } from '#core/dependencies.ts';
import type { TransferConfigItem } from '#core/store/entities/transfer-config.ts';
import type { TableItem, WriteCondition } from '#core/ports/table-store.ts';
import type { Destination } from '../delivery/index.ts';
import type { FileWrite } from './file-writes.ts';

/** The job's dependencies: the table, the raw payload objects, keys (DEKs, sealed secrets), alerts and itself. */
export type TransferJobDependencies = Pick<Dependencies, 'table' | 'blobs' | 'keys' | 'clock' | 'jobs' | 'logger' | 'config'>;

/** Opens the configuration's target for one invocation (the delivery module's `openDestination`; tests wrap it). */
export type DestinationOpener = (config: TransferConfigItem, secrets: { sftpPassword?: string }) => Promise<Destination>;

/** How one invocation works: its time budget and the retry policy per file. */
export interface JobLimits {
  /** Milliseconds this invocation may work before it hands the transfer to a fresh one. */
  budgetMs: number;
  /** Files this invocation delivers at most before handing over (tests force a hand-over with it). */
  maxFiles: number;
  /** Files delivered at the same time to the destination, over its one connection (or S3 client). */
  filesAtOnce: number;
  /** Attempts per file before it is Failed. */
  maxAttempts: number;
  /** First retry delay; each further one doubles, up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
}

/** One invocation's view of the transfer it works on. */
export interface RunContext {
  deps: TransferJobDependencies;
  client: string;
  transferId: string;
  config: TransferConfigItem;
  /** This invocation's lease: every write of the job is conditional on still holding it. */
  leaseId: string;
  limits: JobLimits;
  /** performance.now() past which the invocation hands over. */
  deadline: number;
  /** The configuration's zip password, unsealed for this invocation (ZippedWithPassword only). */
  zipPassword?: string;
  /** The PGP key's fingerprint, when the configuration encrypts (for the manifest). */
  pgpFingerprint?: string;
  /** Files delivered (or failed) by this invocation. */
  filesHandled: number;
  /**
   * Payload items read ahead, one BatchGet for the files of a page, by payload reference; each is taken by the first
   * attempt of its file (a retry reads its payload again).
   */
  payloadsRead: Map<string, TableItem>;
  /** Opened on first use, closed when the invocation ends. */
  destination(): Promise<Destination>;
  /**
   * Writes one file's bookkeeping with the transfer's lease checked (and its counters added) in the same transaction;
   * the writes of files delivered at the same time go together (./file-writes.ts).
   */
  writeFile(write: FileWrite): Promise<void>;
}

/** The condition every job write carries: this invocation still holds the transfer's lease. */
export const holdsLease = (leaseId: string): WriteCondition => ({
  kind: 'expression',
  expression: '#lease = :lease',
  names: { '#lease': 'lease_id' },
  values: { ':lease': leaseId },
});

/** Whether the invocation should stop and hand over before starting more work (`inFlight`: files under way now). */
export function outOfBudget(context: RunContext, inFlight = 0): boolean {
  return performance.now() >= context.deadline || context.filesHandled + inFlight >= context.limits.maxFiles;
}

/** Thrown when this invocation lost its lease (another took over): it stops without writing anything more. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

/** The destination could not be opened (after retries): nothing can be delivered in this invocation. */
export class DestinationUnavailableError extends Error {
  override readonly name = 'DestinationUnavailableError';
}
