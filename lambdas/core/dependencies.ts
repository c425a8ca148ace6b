import type { DeviceTokenVerifier } from './auth/device-token.ts';
import type { TokenVerifier } from './auth/jwt-verifier.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import type { BlobStore } from './ports/blob-store.ts';
import type { Clock } from './ports/clock.ts';
import type { IdentityDirectory } from './ports/identity-directory.ts';
import type { JobRunner } from './ports/job-runner.ts';
import type { KeyService } from './ports/key-service.ts';
import type { MalwareScanner } from './ports/malware-scanner.ts';
import type { Scheduler } from './ports/scheduler.ts';
import type { TableStore } from './ports/table-store.ts';
import type { CursorCodec } from './store/cursor.ts';

/**
 * Everything a handler or service may use, built once by the composition root (`composition.ts`).
 * Services receive what they need from here as arguments; they never build an AWS client.
 */
export interface Dependencies {
  config: Config;
  logger: Logger;
  clock: Clock;
  table: TableStore;
  blobs: BlobStore;
  keys: KeyService;
  identity: IdentityDirectory;
  scheduler: Scheduler;
  /** Starts a job of the jobs function now (processing a payload whose object arrived before its registration). */
  jobs: JobRunner;
  scanner: MalwareScanner;
  cursors: CursorCodec;
  /** Portal user id tokens. */
  tokens: TokenVerifier;
  deviceTokens: DeviceTokenVerifier;
}

/** The ports a function is wired with only when its endpoints use them (the table and the rest are always there). */
export type PortName = 'blobs' | 'keys' | 'identity' | 'scheduler' | 'jobs' | 'scanner';

/** What an adapter is built from: the configuration, the logger, and one client per function that two adapters share. */
export interface AdapterContext {
  config: Config;
  logger: Logger;
  /** The value `build` makes the first time `name` is asked for in this function's dependencies (e.g. its S3 client). */
  shared<T>(name: string, build: () => T): T;
}

/**
 * How one port is built for a Lambda function, real or local by the configuration (`lambdas/core/adapters/wiring/`).
 * A function lists the adapters its endpoints use, so its bundle holds no SDK client it never calls.
 */
export interface PortAdapter<K extends PortName = PortName> {
  port: K;
  build(context: AdapterContext): Dependencies[K];
}
