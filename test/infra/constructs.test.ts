import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it, onTestFinished } from 'vitest';
import { checkSchedules } from '../../lib/config/job-schedules.ts';
import { handler as notBuiltHandler } from '../../lib/constructs/not-built-handler.ts';
import { handlerEntry, NOT_BUILT_HANDLER } from '../../lib/constructs/paths.ts';
import { VerityFunction } from '../../lib/constructs/verity-function.ts';
import { checkRoutes, type RoutedEndpoint } from '../../lib/stacks/api-stack.ts';
import { FIXTURE_ENDPOINTS } from './fixtures.ts';

function functionIn(stack: Stack, id = 'Fn'): VerityFunction {
  return new VerityFunction(stack, id, { entry: NOT_BUILT_HANDLER, description: 'test', logRetention: RetentionDays.ONE_WEEK });
}

function unbundledStack(): Stack {
  return new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Test');
}

describe('VerityFunction environment', () => {
  it.each(['AWS_REGION', 'AWS_ACCESS_KEY_ID', '_HANDLER', 'LAMBDA_TASK_ROOT'])('refuses the reserved variable %s', (name) => {
    expect(() => functionIn(unbundledStack()).setEnv(name, 'x')).toThrow('reserved by Lambda');
  });

  it.each(['table_name', 'TABLE-NAME', '1TABLE', '', 'TABLE NAME'])('refuses the malformed name %j', (name) => {
    expect(() => functionIn(unbundledStack()).setEnv(name, 'x')).toThrow('UPPER_SNAKE_CASE');
  });

  it('refuses two different values for one variable, accepts the same value twice', () => {
    const fn = functionIn(unbundledStack());
    fn.setEnv('TABLE_NAME', 'a').setEnv('TABLE_NAME', 'a');
    expect(() => fn.setEnv('TABLE_NAME', 'b')).toThrow('already set to another value');
  });
});

describe('cdk-nag scoping', () => {
  it('still flags a wildcard the construct did not suppress', () => {
    const stack = unbundledStack();
    const fn = functionIn(stack);
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:*'], resources: ['arn:aws:s3:::someone-elses-bucket/*'] }));
    Aspects.of(stack).add(new AwsSolutionsChecks());
    let errors: string[];
    try {
      errors = Annotations.fromStack(stack)
        .findError('*', Match.stringLikeRegexp('AwsSolutions-IAM5'))
        .map((finding) => String(finding.entry.data));
    } catch (error) {
      // Newer aws-cdk-lib fails synthesis on error annotations; the report names the finding.
      errors = [String(error)];
    }
    expect(errors.join('\n')).toContain('Action::s3:*');
    expect(errors.join('\n')).toContain('someone-elses-bucket/*');
  });
});

describe('route checks', () => {
  const base = FIXTURE_ENDPOINTS[1]!;

  it('accepts the fixture set', () => {
    expect(() => checkRoutes(FIXTURE_ENDPOINTS)).not.toThrow();
  });

  it('refuses a duplicate method and path', () => {
    expect(() => checkRoutes([...FIXTURE_ENDPOINTS, { ...base, id: 'client.devices.get' }])).toThrow('share the route');
  });

  it('refuses two routes that differ only in a parameter name', () => {
    const renamed: RoutedEndpoint = { ...base, id: 'admin.devices.other', fullPath: '/api/v1/{client}/devices/{reference}' };
    expect(() => checkRoutes([...FIXTURE_ENDPOINTS, renamed])).toThrow('share the route');
  });

  it.each(['devices', '/api/v1//devices', '/api/v1/{client}/devices?x=1', '/api/v1/{client}/dev ices'])('refuses the path %j', (fullPath) => {
    expect(() => checkRoutes([{ ...base, fullPath }])).toThrow('is not a valid route path');
  });
});

describe('schedule checks', () => {
  const valid = { name: 'nightly', expression: 'cron(0 2 * * ? *)', target: { job: 'nightly', input: {} } };

  it('accepts rate and cron expressions, and an empty list', () => {
    expect(() => checkSchedules([])).not.toThrow();
    expect(() => checkSchedules([valid, { ...valid, name: 'often', expression: 'rate(5 minutes)' }])).not.toThrow();
  });

  it.each([
    [{ ...valid, expression: '0 2 * * *' }, 'not a rate() or cron()'],
    [{ ...valid, expression: 'rate(5 weeks)' }, 'not a rate() or cron()'],
    [{ ...valid, name: 'has space' }, 'name must be'],
    [{ ...valid, name: 'x'.repeat(65) }, 'name must be'],
  ])('refuses %j', (schedule, message) => {
    expect(() => checkSchedules([schedule])).toThrow(message);
  });

  it('refuses a duplicate name', () => {
    expect(() => checkSchedules([valid, valid])).toThrow('defined twice');
  });
});

describe('the not-built handler', () => {
  it('answers 501 naming the route, in the error body shape of lambdas/core', async () => {
    const response = await notBuiltHandler({ routeKey: 'GET /api/v1/{client}/devices' });
    expect(response.statusCode).toBe(501);
    expect(JSON.parse(response.body)).toEqual({
      error_code: 501,
      message: 'GET /api/v1/{client}/devices is not implemented yet',
      errors: ['GET /api/v1/{client}/devices is not implemented yet'],
    });
  });

  it('does not echo an oversized or missing route key', async () => {
    for (const event of [{}, { routeKey: 'x'.repeat(10_000) }, { routeKey: 42 as unknown as string }]) {
      const response = await notBuiltHandler(event);
      expect(response.statusCode).toBe(501);
      expect(response.body.length).toBeLessThan(200);
    }
  });
});

describe('bundling', () => {
  it('bundles locally with esbuild (no Docker) into minified ESM with a require banner and a source map', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'verity-bundle-'));
    onTestFinished(() => rmSync(outdir, { recursive: true, force: true }));
    const app = new App({ outdir });
    const stack = new Stack(app, 'Bundled');
    functionIn(stack);
    const assembly = app.synth();
    const template = Template.fromJSON(assembly.getStackByName('Bundled').template);
    template.hasResourceProperties('AWS::Lambda::Function', { Handler: 'index.handler', Runtime: 'nodejs22.x' });
    const assetDirs = readdirSync(assembly.directory)
      .filter((name) => name.startsWith('asset.'))
      .map((name) => join(assembly.directory, name));
    expect(assetDirs).toHaveLength(1);
    const bundle = readFileSync(join(assetDirs[0]!, 'index.mjs'), 'utf8');
    expect(bundle.startsWith('import { createRequire as __verityCreateRequire }')).toBe(true);
    expect(bundle).toMatch(/export\s*\{/);
    expect(existsSync(join(assetDirs[0]!, 'index.mjs.map'))).toBe(true);
  });

  it('splits each function into index.mjs and the chunks its import()s load, one asset per function', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'verity-bundle-'));
    onTestFinished(() => rmSync(outdir, { recursive: true, force: true }));
    const app = new App({ outdir });
    const stack = new Stack(app, 'Split');
    functionIn(stack);
    // The audit function's key service loads its KMS adapter and client on first call (adapters/wiring/key-service.ts).
    new VerityFunction(stack, 'Audit', { entry: handlerEntry('audit')!, description: 'audit', logRetention: RetentionDays.ONE_WEEK });
    const assembly = app.synth();
    const assetDirs = readdirSync(assembly.directory)
      .filter((name) => name.startsWith('asset.'))
      .map((name) => join(assembly.directory, name));
    // Two assets: the CDK's asset cache keys on the bundling options, which name each function's entry.
    expect(assetDirs).toHaveLength(2);
    const files = assetDirs.map((dir) => readdirSync(dir));
    const audit = files.find((names) => names.some((name) => name.startsWith('kms-key-service-')));
    expect(audit).toBeDefined();
    expect(audit).toContain('index.mjs');
    for (const chunk of audit!.filter((name) => name.endsWith('.mjs'))) {
      expect(readFileSync(join(assetDirs[files.indexOf(audit!)]!, chunk), 'utf8').startsWith('import { createRequire as __verityCreateRequire }'), chunk).toBe(true);
    }
  });
});
