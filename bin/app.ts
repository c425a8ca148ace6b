import { App } from 'aws-cdk-lib';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { stageConfigFromContext } from '../lib/config/stage-config.ts';
import { buildVerityApp } from '../lib/verity-app.ts';

/**
 * The CDK app. Pick a stage with `npx cdk synth -c stage=prod` (default `dev`); stages live in cdk.json
 * under `verity:stages`. Synth needs no credentials and no network: stacks are environment-agnostic unless
 * the stage names an account and region, and nothing is looked up.
 */
const app = new App();
const config = stageConfigFromContext((key) => app.node.tryGetContext(key));
buildVerityApp(app, { config, endpoints: ENDPOINTS });
app.synth();
