import { blobStoreAdapter } from './adapters/wiring/blob-store.ts';
import { identityDirectoryAdapter } from './adapters/wiring/identity-directory.ts';
import { jobRunnerAdapter } from './adapters/wiring/job-runner.ts';
import { keyServiceAdapter } from './adapters/wiring/key-service.ts';
import { malwareScannerAdapter } from './adapters/wiring/malware-scanner.ts';
import { schedulerAdapter } from './adapters/wiring/scheduler.ts';
import type { Config } from './config.ts';
import type { Dependencies, PortAdapter } from './dependencies.ts';
import { composeDependencies, dependenciesWith } from './function-dependencies.ts';

export { sdkLogger } from './adapters/aws/sdk-logger.ts';
export { setDependencies } from './function-dependencies.ts';

/**
 * The one composition root: picks AWS or local adapters from the configuration. DynamoDB and S3 are the real
 * engines in both modes (DynamoDB Local and s3rver stand in by endpoint); keys, scheduling and scanning have local
 * adapters (`adapters/wiring/`). A Lambda function is wired with only the adapters its endpoints use
 * (`function-dependencies.ts`: `dependenciesWith` in its handler), so it bundles no SDK client it never calls; the
 * local server, the scripts and the tests take every adapter from here. Each SDK client is built once, on first use.
 */
export const ALL_ADAPTERS: readonly PortAdapter[] = [
  blobStoreAdapter,
  keyServiceAdapter,
  identityDirectoryAdapter,
  schedulerAdapter,
  jobRunnerAdapter,
  malwareScannerAdapter,
];

/** Every port, built on first use; `overrides` replace any of them (tests). */
export function buildDependencies(config: Config, overrides: Partial<Dependencies> = {}): Dependencies {
  return composeDependencies(config, ALL_ADAPTERS, overrides);
}

/**
 * The process's dependencies with every port, built on first use from `getConfig()`, and rebuilt if the configuration
 * was reset since (the local server restarting its stack in one process). `setDependencies` replaces them.
 */
export const getDependencies: () => Dependencies = dependenciesWith(...ALL_ADAPTERS);
