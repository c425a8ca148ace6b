import { systemClock } from './adapters/local/clocks.ts';
import { dynamoTableOf } from './adapters/wiring/dynamodb-table.ts';
import { createDeviceTokens, deviceTokenSecret } from './auth/device-token.ts';
import { createOidcTokenVerifier } from './auth/jwt-verifier.ts';
import { getConfig, type Config } from './config.ts';
import type { Dependencies, PortAdapter, PortName } from './dependencies.ts';
import { createLogger } from './logger.ts';
import { createCursorCodec } from './store/cursor.ts';

/**
 * The composition root's core: what every function has (configuration, logger, clock, the DynamoDB table, cursors,
 * token verifiers) plus the ports it is wired with. A Lambda function names the adapters its endpoints use
 * (`dependenciesWith(blobStoreAdapter, …)` in its handler), so its bundle holds only those SDK clients; the full set,
 * for the local server, scripts and tests, is `buildDependencies` in `composition.ts`. A port the function was not
 * wired with throws on use, naming it: that is a wiring bug, caught by `function-dependencies.test.ts`.
 *
 * Each adapter is built on first use, once per Lambda container: a function that never stores a blob, signs with a
 * key or schedules builds no client for it.
 */
export function composeDependencies(config: Config, adapters: readonly PortAdapter[], overrides: Partial<Dependencies> = {}): Dependencies {
  const logger = overrides.logger ?? createLogger({ level: config.LOG_LEVEL });
  const table = overrides.table ?? dynamoTableOf(config);
  const clock = overrides.clock ?? systemClock;

  const sharedClients = new Map<string, unknown>();
  const context = {
    config,
    logger,
    shared: <T>(name: string, build: () => T): T => {
      if (!sharedClients.has(name)) sharedClients.set(name, build());
      return sharedClients.get(name) as T;
    },
  };
  const byPort = new Map(adapters.map((adapter) => [adapter.port, adapter]));
  const port = <K extends PortName>(name: K) => {
    const adapter = byPort.get(name) as PortAdapter<K> | undefined;
    if (adapter === undefined) {
      return () => {
        throw new Error(`This function is not wired with the ${name} port: add its adapter to the handler's dependenciesWith(…)`);
      };
    }
    return once(() => adapter.build(context));
  };
  const blobs = port('blobs');
  const keys = port('keys');
  const identity = port('identity');
  const scheduler = port('scheduler');
  const jobs = port('jobs');
  const scanner = port('scanner');

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

/** Dependencies set for the whole process (tests, the local server, the load bench); every function's provider honours them. */
let override: Dependencies | undefined;

/** Replaces the process's dependencies (tests, or a local server wiring its own); no argument restores the built ones. */
export function setDependencies(dependencies?: Dependencies): void {
  override = dependencies;
}

/**
 * A function's dependency provider: the table and the given adapters, built from `getConfig()` on first use and
 * rebuilt if the configuration was reset since (the local server restarting its stack in one process).
 */
export function dependenciesWith(...adapters: PortAdapter[]): () => Dependencies {
  let built: Dependencies | undefined;
  return () => {
    if (override !== undefined) return override;
    const config = getConfig();
    if (built?.config !== config) built = composeDependencies(config, adapters);
    return built;
  };
}

/** The provider of a function whose endpoints call DynamoDB only: the default of `createApiHandler`. */
export const getTableDependencies: () => Dependencies = dependenciesWith();
