import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { build } from 'esbuild';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { CONFIG_VARIABLES, type ConfigName } from '../../lambdas/core/config.ts';
import { esbuildOptionsLikeLambda } from '../../lib/constructs/lambda-bundling.ts';
import { REPO_ROOT } from '../../lib/constructs/paths.ts';
import { VerityFunction } from '../../lib/constructs/verity-function.ts';
import type { VerityStacks } from '../../lib/verity-app.ts';
import { synthApp } from './synth.ts';

/**
 * Configuration reaches every function that reads it. Functions read the environment only through
 * lambdas/core/config.ts, whose declarations say how each variable is deployed. For every function of the synthesised
 * app, its handler is bundled with the CDK's own esbuild options, and the repository modules left in the bundle (after
 * tree-shaking) are read for the declared names they use; each `where-read` variable so used, and every `platform`
 * one, must be in the function's Environment in the template. A function whose code reads a variable its CDK function
 * does not set would run in AWS on the code's fallback (a phone given `https://portal.invalid` as its portal link).
 */
const CONFIG_MODULE = 'lambdas/core/config.ts';
const declared = Object.entries(CONFIG_VARIABLES) as Array<[ConfigName, (typeof CONFIG_VARIABLES)[ConfigName]]>;
const namesOf = (deployment: string) => new Set(declared.filter(([, variable]) => variable.deployment === deployment).map(([name]) => name));
const WHERE_READ = namesOf('where-read');
const PLATFORM = namesOf('platform');
const JOB_FUNCTIONS = namesOf('job-function');
/** Reads the job function variable of the job it starts, chosen at run time (a `job-function` variable). */
const JOB_RUNNER_MODULE = 'lambdas/core/adapters/wiring/job-runner.ts';

interface DeployedFunction {
  path: string;
  entry: string;
  environment: Record<string, unknown>;
}

let stacks: VerityStacks;
let cleanup: () => void = () => {};
let deployed: DeployedFunction[];
afterAll(() => cleanup());
beforeAll(() => {
  ({ stacks, cleanup } = synthApp({ endpoints: ENDPOINTS }));
  deployed = Object.values(stacks)
    .filter((stack): stack is Stack => stack instanceof Stack)
    .flatMap((stack) => {
      const resources = Template.fromStack(stack).toJSON().Resources as Record<string, { Properties: { Environment?: { Variables?: Record<string, unknown> } } }>;
      return stack.node
        .findAll()
        .filter((construct): construct is VerityFunction => construct instanceof VerityFunction)
        .map((fn) => {
          const logicalId = stack.getLogicalId(fn.function.node.defaultChild as CfnFunction);
          return { path: fn.node.path, entry: fn.entry, environment: resources[logicalId]?.Properties.Environment?.Variables ?? {} };
        });
    });
});

/** The identifiers and string literals of a TypeScript source (comments are not code). */
function tokensOf(source: string): Set<string> {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, source);
  const tokens = new Set<string>();
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.Identifier || kind === ts.SyntaxKind.StringLiteral || kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral) {
      tokens.add(scanner.getTokenValue());
    }
  }
  return tokens;
}

/** The repository modules of a handler's bundle that esbuild kept code of (tree-shaken, as the CDK bundles it). */
const modulesByEntry = new Map<string, Promise<string[]>>();
function bundledModules(entry: string): Promise<string[]> {
  const known = modulesByEntry.get(entry) ?? keptModules(entry);
  modulesByEntry.set(entry, known);
  return known;
}

async function keptModules(entry: string): Promise<string[]> {
  const result = await build({
    ...esbuildOptionsLikeLambda(join(REPO_ROOT, 'tsconfig.json')),
    entryPoints: [entry],
    outdir: join(REPO_ROOT, 'cdk.out.env-wiring'),
    write: false,
    metafile: true,
  });
  // The entry and every chunk: a module loaded on first call (an adapter's client) reads its variables then.
  const inputs = Object.values(result.metafile.outputs).flatMap((output) => Object.entries(output.inputs));
  return [
    ...new Set(
      inputs.filter(([input, use]) => use.bytesInOutput > 0 && !input.includes('node_modules/') && /\.(ts|tsx|js|mjs)$/.test(input)).map(([input]) => input),
    ),
  ];
}

/** The declared variables a handler's bundled code names outside the config module itself, and where. */
export async function configReadsOf(entry: string): Promise<Map<ConfigName, string[]>> {
  const reads = new Map<ConfigName, string[]>();
  for (const module of await bundledModules(entry)) {
    if (module === CONFIG_MODULE) continue;
    const tokens = tokensOf(readFileSync(join(REPO_ROOT, module), 'utf8'));
    for (const [name] of declared) if (tokens.has(name)) reads.set(name, [...(reads.get(name) ?? []), module]);
  }
  return reads;
}

describe('configuration reaches every function that reads it', () => {
  it('finds the API, jobs and transfer jobs functions', () => {
    expect(deployed.length).toBeGreaterThanOrEqual(15);
    expect(deployed.map((fn) => fn.path)).toEqual(expect.arrayContaining([expect.stringMatching(/Group-device-api$/), expect.stringMatching(/Jobs$/)]));
  });

  it('gives every function the platform variables', () => {
    for (const fn of deployed) {
      const missing = [...PLATFORM].filter((name) => !(name in fn.environment));
      expect(missing, fn.path).toEqual([]);
    }
  });

  it('gives each function every variable its code reads', { timeout: 180_000 }, async () => {
    const unset: string[] = [];
    for (const fn of deployed) {
      for (const [name, modules] of await configReadsOf(fn.entry)) {
        if (WHERE_READ.has(name) && !(name in fn.environment)) unset.push(`${fn.path}: ${name} (read in ${modules.join(', ')})`);
      }
    }
    expect(unset).toEqual([]);
  });

  it('gives each function that may start jobs the name of a job function', { timeout: 180_000 }, async () => {
    const unnamed: string[] = [];
    for (const fn of deployed) {
      const startsJobs = (await bundledModules(fn.entry)).includes(JOB_RUNNER_MODULE);
      if (startsJobs && ![...JOB_FUNCTIONS].some((name) => name in fn.environment)) unnamed.push(fn.path);
    }
    expect(unnamed).toEqual([]);
  });

  it('sees a read: the device API names PORTAL_URL, the devices function does not', async () => {
    const entry = (group: string) => deployed.find((fn) => fn.path.endsWith(`Group-${group}`))?.entry as string;
    expect((await configReadsOf(entry('device-api'))).get('PORTAL_URL')).toEqual(['lambdas/device-api/authenticate-device.ts']);
    expect((await configReadsOf(entry('devices'))).has('PORTAL_URL')).toBe(false);
  }, 60_000);
});
