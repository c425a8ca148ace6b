import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDynamoTableStore } from './adapters/aws/dynamodb-table-store.ts';
import { createEventBridgeScheduler } from './adapters/aws/eventbridge-scheduler.ts';
import { createGuardDutyScanner } from './adapters/aws/guardduty-scanner.ts';
import { createKmsKeyService } from './adapters/aws/kms-key-service.ts';
import { createLambdaJobRunner } from './adapters/aws/lambda-job-runner.ts';
import { createS3BlobStore } from './adapters/aws/s3-blob-store.ts';
import { systemClock } from './adapters/local/clocks.ts';
import { createEicarScanner } from './adapters/local/eicar-scanner.ts';
import { createLocalJobRunner } from './adapters/local/local-job-runner.ts';
import { createLocalKeyService } from './adapters/local/local-key-service.ts';
import { createLocalScheduler } from './adapters/local/local-scheduler.ts';
import { createOidcIdentityDirectory } from './adapters/oidc/oidc-identity-directory.ts';
import { createDeviceTokens, deviceTokenSecret } from './auth/device-token.ts';
import { createOidcTokenVerifier } from './auth/jwt-verifier.ts';
import { getConfig, type Config } from './config.ts';
import type { Dependencies } from './dependencies.ts';
import { createLogger, type Logger } from './logger.ts';
import type { JobRunner } from './ports/job-runner.ts';
import type { Scheduler } from './ports/scheduler.ts';
import { createCursorCodec } from './store/cursor.ts';

/**
 * The one composition root: picks AWS or local adapters from the configuration. DynamoDB and S3 are the real
 * engines in both modes (DynamoDB Local and s3rver stand in by endpoint); keys, scheduling and scanning have local
 * adapters. Each SDK client is built once per Lambda container: DynamoDB's with the dependencies, the others (S3, KMS,
 * Scheduler, Lambda, GuardDuty's bucket reads, the OIDC directory) on first use.
 */
export function buildDependencies(config: Config, overrides: Partial<Dependencies> = {}): Dependencies {
  const local = config.VERITY_MODE === 'local';
  const logger = overrides.logger ?? createLogger({ level: config.LOG_LEVEL });
  // Stand-ins do not check signatures; fixed credentials keep the SDK from searching the machine for real ones.
  const standInCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

  const dynamo = new DynamoDBClient({
    region: config.AWS_REGION,
    ...(config.DYNAMODB_ENDPOINT ? { endpoint: config.DYNAMODB_ENDPOINT, credentials: standInCredentials } : {}),
  });
  const documents = DynamoDBDocumentClient.from(dynamo, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  const s3 = once(
    () =>
      new S3Client({
        region: config.AWS_REGION,
        logger: sdkLogger(logger),
        ...(config.S3_ENDPOINT
          ? {
              endpoint: config.S3_ENDPOINT,
              credentials: standInCredentials,
              // s3rver serves path-style URLs only, and stores streamed bodies corrupted when the SDK adds checksums.
              forcePathStyle: true,
              requestChecksumCalculation: 'WHEN_REQUIRED',
              responseChecksumValidation: 'WHEN_REQUIRED',
            }
          : {}),
      }),
  );
  const buckets = { raw: config.RAW_BUCKET, processed: config.PROCESSED_BUCKET };
  const table = overrides.table ?? createDynamoTableStore(documents, config.TABLE_NAME);
  const clock = overrides.clock ?? systemClock;
  // Built on first use: a function that never stores a blob, signs with a key or schedules builds no client for it.
  const blobs = once(() => createS3BlobStore(s3(), buckets));
  const keys = once(() =>
    local ? createLocalKeyService({ dataDir: config.DATA_DIR as string }) : createKmsKeyService(new KMSClient({ region: config.AWS_REGION })),
  );
  const identity = once(() => createOidcIdentityDirectory({ issuer: config.OIDC_ISSUER }));
  const scheduler = once(() => (local ? localScheduler(logger) : awsScheduler(config)));
  const jobs = once(() => (local ? createLocalJobRunner(logger) : awsJobRunner(config)));
  const scanner = once(() => (local ? createEicarScanner() : createGuardDutyScanner(s3(), config.SCAN_BUCKET)));

  return {
    config,
    logger,
    clock,
    table,
    get blobs() {
      return blobs();
    },
    get keys() {
      return keys();
    },
    get identity() {
      return identity();
    },
    get scheduler() {
      return scheduler();
    },
    get jobs() {
      return jobs();
    },
    get scanner() {
      return scanner();
    },
    cursors: createCursorCodec(config.CURSOR_SECRET),
    tokens: createOidcTokenVerifier({ issuer: config.OIDC_ISSUER, audiences: config.OIDC_AUDIENCES }),
    deviceTokens: createDeviceTokens({ secret: deviceTokenSecret(config), table, clock }),
    // An override replaces the getter of the same name with its own value.
    ...overrides,
  };
}

/** The value `build` makes on the first call, kept for every later one. */
function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/**
 * The AWS SDK's logger, routed to ours. Without one the SDK writes to the console: for instance "An error was
 * encountered in a non-retryable streaming request." whenever processing aborts the upload of a payload that failed
 * its checks, an expected outcome that processing logs itself. Only the SDK's text is kept: what else it passes
 * (requests, clients) can be circular or hold secrets. Its debug and info lines are dropped, its warnings kept at
 * debug level. A logger must never throw: it runs inside the SDK's request path.
 */
export function sdkLogger(logger: Logger) {
  // Only strings and errors' messages: the SDK's other arguments can be circular (they must never be serialised).
  const words = (part: unknown) => (typeof part === 'string' ? [part] : part instanceof Error ? [part.message] : []);
  const text = (content: unknown[]) => `aws-sdk: ${content.flatMap(words).join(' ')}`;
  return {
    debug: (..._content: unknown[]) => undefined,
    info: (..._content: unknown[]) => undefined,
    warn: (...content: unknown[]) => logger.debug(text(content)),
    error: (...content: unknown[]) => logger.error(text(content)),
  };
}

function localScheduler(logger: Logger): Scheduler {
  return createLocalScheduler({
    logger,
    run: async (job, input) => logger.info('scheduled job due (no job runner yet)', { job, input_keys: Object.keys(input) }),
  });
}

/** Lambda's asynchronous invoke needs the jobs function's name; without it a start fails, naming the variable. */
function awsJobRunner(config: Config): JobRunner {
  if (config.JOBS_FUNCTION_NAME) return createLambdaJobRunner(new LambdaClient({ region: config.AWS_REGION }), config.JOBS_FUNCTION_NAME);
  return { start: () => Promise.reject(new Error('Job runner not configured: JOBS_FUNCTION_NAME missing')) };
}

/** EventBridge Scheduler needs its group, target and role; a missing one fails on first use, naming the variable. */
function awsScheduler(config: Config): Scheduler {
  const { SCHEDULE_GROUP: groupName, SCHEDULER_TARGET_ARN: targetArn, SCHEDULER_ROLE_ARN: roleArn } = config;
  if (groupName && targetArn && roleArn) {
    return createEventBridgeScheduler(new SchedulerClient({ region: config.AWS_REGION }), { groupName, targetArn, roleArn });
  }
  const missing = ['SCHEDULE_GROUP', 'SCHEDULER_TARGET_ARN', 'SCHEDULER_ROLE_ARN'].filter((name) => !config[name as keyof Config]);
  const refuse = () => Promise.reject(new Error(`Scheduler not configured: ${missing.join(', ')} missing`));
  return { upsertSchedule: refuse, deleteSchedule: refuse };
}

let built: Dependencies | undefined;
let override: Dependencies | undefined;

/**
 * The process's dependencies, built on first use from `getConfig()`, and rebuilt if the configuration was reset
 * since (the local server restarting its stack in one process).
 */
export function getDependencies(): Dependencies {
  if (override !== undefined) return override;
  const config = getConfig();
  if (built?.config !== config) built = buildDependencies(config);
  return built;
}

/** Replaces the process's dependencies (tests, or a local server wiring its own); no argument restores the built ones. */
export function setDependencies(dependencies?: Dependencies): void {
  override = dependencies;
}
