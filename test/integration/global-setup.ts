import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { REPO_ROOT, startLocalStack } from '../../scripts/local/stack.ts';
import { ensureWebBuilt } from '../../scripts/local/web-build.ts';
import type { StackInfo } from './support/stack-info.ts';
import { TENANT_STAND_IN_HOST } from './support/tenant-stand-ins.ts';

/**
 * Starts the whole local stack once for the integration project: free ports, a temporary data dir, DynamoDB
 * in memory, an SFTP account made for this run. Tests reach it over HTTP (and the stand-ins' endpoints) through
 * `inject('stack')`.
 */
export default async function setup(project: TestProject) {
  ensureWebBuilt(REPO_ROOT, { quiet: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'verity-it-'));
  // The tests' own tenant stand-ins (client apps' key set servers on ports chosen per test) listen on one loopback
  // address nothing else uses; the egress policy excepts it, and only it, besides the stack's stand-ins.
  const stack = await startLocalStack({ dataDir, port: 0, quiet: true, inMemoryDynamo: true, egressAllow: [`${TENANT_STAND_IN_HOST}:*`] });
  const info: StackInfo = {
    apiUrl: stack.apiUrl,
    oidcIssuer: stack.oidcIssuer,
    dynamoEndpoint: stack.dynamoEndpoint,
    s3Endpoint: stack.s3Endpoint,
    sftp: stack.sftp,
    dataDir: stack.dataDir,
    env: stack.env,
    clientIds: stack.clientIds,
  };
  project.provide('stack', info);
  return async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
