import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { RouteTarget } from './api-gateway.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION, ensureTable, startDynamo, type LocalDynamo } from './dynamodb.ts';
import { securityHeaders } from '../../lib/config/security-headers.ts';
import { createRequestListener, listenLoopback, type LambdaHandler } from './http-server.ts';
import { createLocalJobsHandler, startLocalJobs } from './jobs.ts';
import { writeRunningStack } from './running-stack.ts';
import { startLocalAuditSequencer } from './audit-sequencer.ts';
import { setLocalJobHandler } from '#core/adapters/local/local-job-runner.ts';
import { getDependencies } from '#core/composition.ts';
import { createJobsHandler, type JobsHandler } from '../../lambdas/jobs/handler.ts';
import { OIDC_MOUNT_PATH, createLocalOidc, type LocalOidc } from './oidc.ts';
import { startS3, type LocalS3, type S3Event } from './s3.ts';
import { startSftp, type LocalSftp } from './sftp.ts';
import { DEMO_TENANTS } from './seed/accounts.ts';
import { seedOnce } from './seed/seed.ts';

/** The repository root (this file is `scripts/local/stack.ts`). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

export const TABLE_NAME = 'verity';
export const RAW_BUCKET = 'verity-raw';
export const PROCESSED_BUCKET = 'verity-processed';
/** A customer's bucket that S3-target transfers deliver to (the SFTP stand-in serves SFTP targets). */
export const TRANSFER_DESTINATION_BUCKET = 'verity-transfer-destination';
/** Buckets made with Object Lock enabled, as the data stack makes the payload buckets (lib/constructs/payload-bucket.ts). */
export const OBJECT_LOCK_BUCKETS = [RAW_BUCKET, PROCESSED_BUCKET];

export interface LocalStackOptions {
  /** Everything the stack keeps: `dynamodb/`, `s3/`, `s3-object-lock/`, `sftp/`, `oidc/`, `secrets.json`, and the handlers' DATA_DIR files. */
  dataDir: string;
  /** Port of the one HTTP origin (API, OIDC, web app); 0 picks a free one. */
  port: number;
  /** Wipe `dataDir` first. */
  reset?: boolean;
  /** No log lines (tests). */
  quiet?: boolean;
  /** Keep DynamoDB in memory instead of under `dataDir/dynamodb` (tests: faster, nothing left behind). */
  inMemoryDynamo?: boolean;
  /** The built portal to serve (default `web/dist`). */
  webRoot?: string;
  /** More `host:port` egress exceptions (the integration tests' own tenant stand-ins); none by default. */
  egressAllow?: string[];
  /** The SFTP stand-in's port and account (default: a free port, user `verity-sftp`, a password made per run). */
  sftp?: { port?: number; username?: string; password?: string };
}

/** Where and how to reach the SFTP stand-in (a customer's SFTP server for transfers). */
export type SftpEndpoint = Omit<LocalSftp, 'stop'>;

/** The environment the Lambda handlers read (lambdas/core/config.ts), as the deployed functions get it. */
export type StackEnv = Record<
  | 'VERITY_MODE'
  | 'TABLE_NAME'
  | 'AWS_REGION'
  | 'DYNAMODB_ENDPOINT'
  | 'S3_ENDPOINT'
  | 'RAW_BUCKET'
  | 'PROCESSED_BUCKET'
  | 'OIDC_ISSUER'
  | 'OIDC_AUDIENCES'
  | 'CURSOR_SECRET'
  | 'DATA_DIR'
  | 'VALIDATE_RESPONSES'
  | 'LOG_LEVEL'
  | 'PORTAL_URL'
  | 'AWS_ACCESS_KEY_ID'
  | 'AWS_SECRET_ACCESS_KEY'
  | 'EGRESS_ALLOW',
  string
>;

export interface LocalStack {
  apiUrl: string;
  oidcIssuer: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  sftp: SftpEndpoint;
  dataDir: string;
  env: StackEnv;
  /** OIDC client ids of the portals (`verity-<tenant>-portal`, `verity-admin-portal`). */
  clientIds: string[];
  /** Subscribes to S3 object events (the local stand-in for S3 → Lambda notifications). */
  onS3Event(listener: (event: S3Event) => void): void;
  stop(): Promise<void>;
}

/** Reads the endpoint registry; an empty list (with a warning) while `shared/contract/registry.ts` does not exist. */
async function loadEndpoints(log: (line: string) => void): Promise<RouteTarget[]> {
  const file = join(REPO_ROOT, 'shared/contract/registry.ts');
  if (!existsSync(file)) {
    log('warning: shared/contract/registry.ts is missing; no API endpoint is served');
    return [];
  }
  const module = (await import(pathToFileURL(file).href)) as { ENDPOINTS: readonly RouteTarget[] };
  return [...module.ENDPOINTS];
}

/** Loads each group's handler once, after the environment is set (handlers read it on first call). */
function handlerLoader(log: (line: string) => void) {
  const cache = new Map<string, Promise<LambdaHandler | undefined>>();
  return (group: string): Promise<LambdaHandler | undefined> => {
    let loading = cache.get(group);
    if (!loading) {
      const file = join(REPO_ROOT, 'lambdas', group, 'handler.ts');
      loading = existsSync(file)
        ? import(pathToFileURL(file).href).then((module: { handler?: unknown }) => {
            if (typeof module.handler !== 'function') {
              log(`warning: lambdas/${group}/handler.ts exports no handler function`);
              return undefined;
            }
            return module.handler as LambdaHandler;
          })
        : Promise.resolve(undefined);
      // A failed import (syntax error while someone edits) is retried on the next request, not cached.
      loading.catch(() => cache.delete(group));
      cache.set(group, loading);
    }
    return loading;
  };
}

/** Secrets that must survive restarts (cursors signed yesterday still verify today). */
function loadOrCreateSecrets(dataDir: string): { cursorSecret: string } {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { cursorSecret: string };
  const secrets = { cursorSecret: randomBytes(32).toString('base64url') };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

async function settle(check: () => Promise<unknown>): Promise<'up' | 'down'> {
  try {
    await check();
    return 'up';
  } catch {
    return 'down';
  }
}

/**
 * Starts everything `npm start` and the integration tests need: DynamoDB Local, s3rver, the OIDC provider
 * and the API Gateway stand-in, on one HTTP origin. `stop()` stops every child process.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const log = options.quiet ? () => undefined : (line: string) => console.log(line);
  const errorLog = (line: string) => console.error(line);
  const dataDir = resolve(options.dataDir);
  if (options.reset) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });

  const stoppers: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    // Reverse order: the server first (no new work), then the services it uses.
    for (const stop of stoppers.splice(0).reverse()) await stop().catch(errorLog);
  };

  try {
    const [dynamo, s3, sftp] = await Promise.all([
      startDynamo({ directory: options.inMemoryDynamo ? undefined : join(dataDir, 'dynamodb') }).then((started: LocalDynamo) => {
        stoppers.push(started.stop);
        return started;
      }),
      startS3({
        directory: join(dataDir, 's3'),
        buckets: [RAW_BUCKET, PROCESSED_BUCKET, TRANSFER_DESTINATION_BUCKET],
        objectLock: { buckets: OBJECT_LOCK_BUCKETS, stateDirectory: join(dataDir, 's3-object-lock') },
      }).then((started: LocalS3) => {
        stoppers.push(started.stop);
        return started;
      }),
      startSftp({
        directory: join(dataDir, 'sftp'),
        port: options.sftp?.port ?? 0,
        username: options.sftp?.username ?? 'verity-sftp',
        password: options.sftp?.password ?? randomBytes(18).toString('base64url'),
      }).then((started: LocalSftp) => {
        stoppers.push(started.stop);
        return started;
      }),
    ]);
    await ensureTable(dynamo.client, TABLE_NAME);
    if (await seedOnce(dynamo.client, TABLE_NAME)) log('Seeded the demo tenants and accounts.');

    // The listener needs the OIDC provider, whose issuer needs the port: bind first, then plug the pieces in.
    const app: { listener?: ReturnType<typeof createRequestListener> } = {};
    const { port, servers } = await listenLoopback((req, res) => {
      if (app.listener) void app.listener(req, res);
      else res.writeHead(503, { 'retry-after': '1' }).end('Starting');
    }, options.port);
    stoppers.push(() => closeServers(servers));

    const apiUrl = `http://localhost:${port}`;
    const oidc: LocalOidc = await createLocalOidc({
      issuer: `${apiUrl}${OIDC_MOUNT_PATH}`,
      directory: join(dataDir, 'oidc'),
      tenants: DEMO_TENANTS,
      portalOrigins: [apiUrl, 'http://127.0.0.1:' + port, 'http://localhost:5173'],
    });

    const env: StackEnv = {
      VERITY_MODE: 'local',
      TABLE_NAME,
      AWS_REGION: LOCAL_REGION,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: s3.endpoint,
      RAW_BUCKET,
      PROCESSED_BUCKET,
      OIDC_ISSUER: oidc.issuer,
      OIDC_AUDIENCES: oidc.clientIds.join(','),
      CURSOR_SECRET: loadOrCreateSecrets(dataDir).cursorSecret,
      DATA_DIR: dataDir,
      VALIDATE_RESPONSES: 'true',
      // Quiet (tests): the handlers' per-request info lines would drown the test report.
      LOG_LEVEL: options.quiet ? 'warn' : 'info',
      // The portal is served here: sign-in comes back to it, and a phone is given its link (on whatever port).
      PORTAL_URL: apiUrl,
      // The egress policy refuses loopback; these stand-ins (the SFTP server a local transfer delivers to, the local
      // OIDC provider on this port) are the only exceptions, each one address and port exactly (docs/decisions.md "Egress").
      EGRESS_ALLOW: [`${sftp.host}:${sftp.port}`, `127.0.0.1:${port}`, `[::1]:${port}`, ...(options.egressAllow ?? [])].join(','),
      // The stand-ins ignore credentials, but the SDK's provider chain must find some.
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    };
    // Set before any handler is imported: handlers read their configuration lazily, on first call.
    Object.assign(process.env, env);
    await resetCoreConfig();
    // The platform schedules (support-access expiry, …) on the in-process scheduler, as the jobs stack deploys them,
    // and the tenants' schedules kept in the data folder's schedule file (they outlive a restart).
    const jobs = await startLocalJobs({ logLevel: options.quiet ? 'warn' : 'info', dataDir });
    stoppers.push(async () => jobs.stop());
    // Links the audit trails as the table's stream does in AWS (the records' own writes never wait on it).
    const auditSequencer = startLocalAuditSequencer({ dependencies: getDependencies, log: errorLog });
    stoppers.push(() => auditSequencer.stop());
    // Raw-bucket object events run the payload processing in the jobs handler, as S3 → EventBridge → jobs does.
    const delivery = { stopped: false };
    stoppers.push(async () => void (delivery.stopped = true));
    s3.onEvent((event) => void deliverS3Event(createJobsHandler(getDependencies), event, delivery, errorLog));
    // Jobs the API starts (JobRunner: an asynchronous Lambda invoke of the jobs or the transfer jobs function in AWS)
    // run on one local jobs handler that knows every job of both.
    const jobsHandler = createLocalJobsHandler(getDependencies);
    setLocalJobHandler(async (job, input) => (delivery.stopped ? undefined : jobsHandler({ job, input })));
    stoppers.push(async () => setLocalJobHandler());
    // Long jobs a killed stack left running are resumed now, not at the next scheduled sweep (lambdas/jobs/job-sweep.ts).
    void jobs.sweepNow().catch((error: unknown) => errorLog(`job sweep at start-up failed: ${error instanceof Error ? error.message : String(error)}`));

    const s3Client = new S3Client({
      endpoint: s3.endpoint,
      region: LOCAL_REGION,
      forcePathStyle: true,
      credentials: LOCAL_CREDENTIALS,
    });
    stoppers.push(async () => s3Client.destroy());
    let openapi: unknown;

    app.listener = createRequestListener({
      endpoints: await loadEndpoints(log),
      loadHandler: handlerLoader(errorLog),
      oidc: (req, res) => oidc.handle(req, res),
      webRoot: options.webRoot ?? join(REPO_ROOT, 'web/dist'),
      // Production's headers; the bucket origin of pre-signed URLs is the S3 stand-in's, as in AWS it is the buckets'.
      securityHeaders: securityHeaders({ payloadOrigin: new URL(s3.endpoint).origin, uploadOrigin: new URL(s3.endpoint).origin, secure: false }),
      log: errorLog,
      async health() {
        const [dynamodb, s3Status, oidcStatus] = await Promise.all([
          settle(() => dynamo.client.send(new ListTablesCommand({ Limit: 1 }))),
          settle(() => s3Client.send(new HeadBucketCommand({ Bucket: RAW_BUCKET }))),
          settle(async () => {
            const response = await fetch(`${oidc.issuer}/.well-known/openid-configuration`);
            const body = (await response.json()) as { issuer?: string };
            if (body.issuer !== oidc.issuer) throw new Error('unexpected issuer');
          }),
        ]);
        const services = { dynamodb, s3: s3Status, oidc: oidcStatus };
        const ok = Object.values(services).every((status) => status === 'up');
        return { ok, body: { status: ok ? 'ok' : 'degraded', services } };
      },
      async openapi() {
        if (openapi === undefined) {
          const module = (await import(pathToFileURL(join(REPO_ROOT, 'shared/contract/openapi.ts')).href)) as {
            buildOpenApiDocument(): unknown;
          };
          openapi = module.buildOpenApiDocument();
        }
        return openapi;
      },
    });

    // Other commands on this machine (npm run job) find the running stack and its environment here.
    stoppers.push(writeRunningStack(dataDir, { pid: process.pid, apiUrl, env }));

    return {
      apiUrl,
      oidcIssuer: oidc.issuer,
      dynamoEndpoint: dynamo.endpoint,
      s3Endpoint: s3.endpoint,
      sftp: (({ stop: _stop, ...endpoint }) => endpoint)(sftp),
      dataDir,
      env,
      clientIds: oidc.clientIds,
      onS3Event: s3.onEvent,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * Lambda's retries of an asynchronous invocation (S3 → EventBridge → jobs): after one minute, then two more. An object
 * uploaded before its registration fails its first run (NotRegisteredYetError); the registration then starts the
 * processing itself (registration.ts), so the retry is only the safety net it is in AWS. Retrying sooner (it used to
 * be 250 ms, doubling) ran a second processing of the same payload beside the registration's: both wrote the
 * processed object, and the second write was refused as an overwrite of a locked object, logged as errors although
 * the recording ended right.
 */
export const S3_EVENT_RETRY_DELAYS_MS = [60_000, 120_000] as const;

async function deliverS3Event(handler: JobsHandler, event: S3Event, delivery: { stopped: boolean }, log: (line: string) => void): Promise<void> {
  for (let attempt = 0; !delivery.stopped; attempt += 1) {
    try {
      await handler(event);
      return;
    } catch (error) {
      const retryable = error instanceof Error && error.name === 'NotRegisteredYetError';
      const delay = S3_EVENT_RETRY_DELAYS_MS[attempt];
      if (!retryable || delay === undefined) {
        if (!delivery.stopped) log(`S3 event not processed: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      await new Promise((resolveWait) => setTimeout(resolveWait, delay).unref());
    }
  }
}

/** Forgets lambdas/core's memoised configuration, if that module offers to, so it re-reads the new environment. */
async function resetCoreConfig(): Promise<void> {
  const file = join(REPO_ROOT, 'lambdas/core/config.ts');
  if (!existsSync(file)) return;
  const module = (await import(pathToFileURL(file).href)) as { resetConfig?: () => void };
  module.resetConfig?.();
}

async function closeServers(servers: Server[]): Promise<void> {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolveClose) => {
          server.close(() => resolveClose());
          // Keep-alive sockets (browsers, fetch) would hold close() open.
          server.closeAllConnections();
        }),
    ),
  );
}
