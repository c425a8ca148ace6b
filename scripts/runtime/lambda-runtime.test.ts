import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LAMBDA_BUNDLING } from '../../lib/constructs/lambda-bundling.ts';
import { LAMBDA_NODE_MAJOR, describeRuntime, runningNodeMajor } from './lambda-runtime.ts';

describe('the runtime the tests run on', () => {
  it('is the Lambdas’ Node major, not the machine’s', () => {
    expect(runningNodeMajor()).toBe(LAMBDA_NODE_MAJOR);
    expect(describeRuntime()).not.toMatch(/Warning/);
  });

  it('matches the runtime the CDK deploys', () => {
    const construct = readFileSync(new URL('../../lib/constructs/verity-function.ts', import.meta.url), 'utf8');
    expect(construct).toContain(`Runtime.NODEJS_${LAMBDA_NODE_MAJOR}_X`);
    expect(LAMBDA_BUNDLING.target).toBe(`node${LAMBDA_NODE_MAJOR}`);
  });

  it('is the major of the node package the project installs', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(manifest.devDependencies.node).toMatch(new RegExp(`^\\^${LAMBDA_NODE_MAJOR}\\.`));
  });
});
