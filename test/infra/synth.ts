import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { parseStageConfig, type StageConfig } from '../../lib/config/stage-config.ts';
import { REPO_ROOT } from '../../lib/constructs/paths.ts';
import { buildVerityApp, type VerityAppOptions, type VerityStacks } from '../../lib/verity-app.ts';

/** The context of cdk.json (feature flags and stages), so tests synthesise what `cdk synth` does. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  return cdkJson.context;
}

/** The stage config of `stage` as cdk.json declares it. */
export function stageFromCdkJson(stage: string): StageConfig {
  const stages = cdkJsonContext()['verity:stages'] as Record<string, object>;
  return parseStageConfig({ ...stages[stage], stage });
}

export interface SynthOptions extends Omit<VerityAppOptions, 'config'> {
  readonly config?: StageConfig;
  /** Run esbuild for every function (slow); off by default, `cdk synth` proves bundling. */
  readonly bundle?: boolean;
}

/**
 * Builds the app in-process. Bundling is skipped by default (`aws:cdk:bundling-stacks: []`): the templates
 * are the same, only the asset contents differ.
 */
export function synthApp(options: SynthOptions): { app: App; stacks: VerityStacks; cleanup: () => void } {
  const outdir = mkdtempSync(join(tmpdir(), 'verity-cdk-'));
  const app = new App({
    outdir,
    context: { ...cdkJsonContext(), ...(options.bundle === true ? {} : { 'aws:cdk:bundling-stacks': [] }) },
  });
  const stacks = buildVerityApp(app, { ...options, config: options.config ?? stageFromCdkJson('dev') });
  // Each synth stages CDK's own assets (the AWS CLI layer is ~20 MB): remove them after the test file.
  return { app, stacks, cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
}
