import { Aspects, type App, type Environment, Tags } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { ScheduleDefinition } from '#core/ports/scheduler.ts';
import type { EndpointGroup } from '#shared/contract/endpoint.ts';
import { PLATFORM_SCHEDULES } from './config/job-schedules.ts';
import { replicaRegionOf, type StageConfig } from './config/stage-config.ts';
import { handlerEntry } from './constructs/paths.ts';
import { ApiStack, type RoutedEndpoint } from './stacks/api-stack.ts';
import { AuthStack } from './stacks/auth-stack.ts';
import { DataStack, type SecondCopyTarget } from './stacks/data-stack.ts';
import { EdgeStack } from './stacks/edge-stack.ts';
import { GatewayStack } from './stacks/gateway-stack.ts';
import { JobsStack } from './stacks/jobs-stack.ts';
import type { PlatformResources } from './stacks/platform-bindings.ts';
import { ReplicaStack } from './stacks/replica-stack.ts';
import { ReplicationKeyStack } from './stacks/replication-key-stack.ts';
import { WebStack } from './stacks/web-stack.ts';

export interface VerityAppOptions {
  readonly config: StageConfig;
  /** Every declared endpoint; bin/app.ts passes shared/contract/registry.ts's ENDPOINTS. */
  readonly endpoints: readonly RoutedEndpoint[];
  /** @default PLATFORM_SCHEDULES */
  readonly schedules?: readonly ScheduleDefinition[];
  /** Finds a Lambda folder's handler (`lambdas/<folder>/handler.ts`); tests replace it. */
  readonly resolveEntry?: (folder: EndpointGroup | 'jobs' | 'transfer-jobs') => string | undefined;
  /** Directory of the built portal; default `web/dist` if built, else a placeholder. */
  readonly webAssetDir?: string;
}

export interface VerityStacks {
  readonly data: DataStack;
  readonly gateway: GatewayStack;
  /** The multi-Region key of the second copy and the second region's stack; absent when the stage keeps none. */
  readonly replicationKey?: ReplicationKeyStack;
  readonly replica?: ReplicaStack;
  /** The WAF web ACL in us-east-1; absent when the stage names its own (`webAclArn`) or on a development edge. */
  readonly edge?: EdgeStack;
  readonly web: WebStack;
  readonly auth: AuthStack;
  readonly jobs: JobsStack;
  readonly api: ApiStack;
}

/**
 * Builds one stage's stacks. Deployment order (each needs the one before):
 * replication-key → replica (the second region, when the stage keeps a second copy) → data, gateway, edge (us-east-1: the WAF) → web (routes /api/* to the gateway) → auth (callback on the portal URL) →
 * jobs → api (routes, then the stage).
 * Every stack is checked by cdk-nag's AwsSolutions pack; findings are fixed or suppressed with a reason
 * next to the resource.
 */
export function buildVerityApp(app: App, options: VerityAppOptions): VerityStacks {
  const { config } = options;
  const env: Environment | undefined =
    config.account !== undefined && config.region !== undefined ? { account: config.account, region: config.region } : undefined;
  const name = (part: string) => `verity-${config.stage}-${part}`;
  const resolveEntry = options.resolveEntry ?? handlerEntry;

  const second = secondCopyStacks(app, config, name);
  const data = new DataStack(app, name('data'), {
    env,
    config,
    description: `Verity ${config.stage}: table, payload buckets, keys`,
    ...(second === undefined ? {} : { secondCopy: second.target }),
  });
  // The replication rules and the backup copy action name the replica stack's buckets and vault: those must exist first.
  if (second !== undefined) data.addStackDependency(second.replica);
  const gateway = new GatewayStack(app, name('gateway'), { env, config, description: `Verity ${config.stage}: HTTP API` });
  // A CloudFront web ACL lives in us-east-1; the web stack reads its ARN across regions (which needs pinned stacks).
  const edge =
    config.webAclArn === undefined && config.account !== undefined
      ? new EdgeStack(app, name('edge'), {
          env: { account: config.account, region: 'us-east-1' },
          config,
          description: `Verity ${config.stage}: WAF web ACL of the distribution`,
          endpoints: options.endpoints,
        })
      : undefined;
  const web = new WebStack(app, name('web'), {
    env,
    config,
    crossRegionReferences: edge !== undefined,
    webAclArn: config.webAclArn ?? edge?.webAcl.attrArn,
    rawBucket: data.rawBucket,
    description: `Verity ${config.stage}: portal on CloudFront`,
    apiDomainName: gateway.apiDomainName,
    processedBucket: data.processedBucket,
    webAssetDir: options.webAssetDir,
  });
  const auth = new AuthStack(app, name('auth'), { env, config, description: `Verity ${config.stage}: Cognito user pools`, portalUrl: web.portalUrl });

  const platform: PlatformResources = {
    table: data.table,
    rawBucket: data.rawBucket,
    processedBucket: data.processedBucket,
    scanBucket: data.scanBucket,
    key: data.key,
    auditSigningKey: data.auditSigningKey,
    cursorSecret: data.cursorSecret,
    tenants: { issuer: auth.tenants.issuer, audiences: [auth.tenants.client.userPoolClientId] },
    staff: { issuer: auth.staff.issuer, audiences: [auth.staff.client.userPoolClientId] },
    objectLockMode: config.payloadRetentionMode,
  };
  const jobs = new JobsStack(app, name('jobs'), {
    env,
    config,
    description: `Verity ${config.stage}: scheduled and event jobs`,
    platform,
    jobsEntry: resolveEntry('jobs'),
    transferJobsEntry: resolveEntry('transfer-jobs'),
    schedules: options.schedules ?? PLATFORM_SCHEDULES,
  });
  const api = new ApiStack(app, name('api'), {
    env,
    config,
    description: `Verity ${config.stage}: API functions and routes`,
    httpApi: gateway.httpApi,
    stage: { accessLogs: gateway.accessLogs, domainName: gateway.apiDomain },
    platform,
    endpoints: options.endpoints,
    resolveEntry,
    identity: {
      portalUrl: web.portalUrl,
      tenants: { userPoolId: auth.tenants.userPool.userPoolId, clientId: auth.tenants.client.userPoolClientId, authBaseUrl: auth.tenants.domain.baseUrl() },
      staff: { userPoolId: auth.staff.userPool.userPoolId, clientId: auth.staff.client.userPoolClientId, authBaseUrl: auth.staff.domain.baseUrl() },
    },
    transferScheduling: jobs.transferJobs === undefined ? undefined : { group: jobs.transferSchedules, role: jobs.schedulerRole, target: jobs.transferJobs },
    ...(jobs.jobs === undefined ? {} : { jobsFunction: jobs.jobs }),
    ...(jobs.transferJobs === undefined ? {} : { transferJobsFunction: jobs.transferJobs }),
  });

  Tags.of(app).add('project', 'verity');
  Tags.of(app).add('stage', config.stage);
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  return {
    data,
    gateway,
    ...(edge === undefined ? {} : { edge }),
    ...(second === undefined ? {} : { replicationKey: second.key, replica: second.replica }),
    web,
    auth,
    jobs,
    api,
  };
}

/**
 * The second copy's stacks, when the stage has a second region: the multi-Region key (stage region), then the replica
 * buckets and copy vault (second region), which read the key's ARN across regions.
 */
function secondCopyStacks(
  app: App,
  config: StageConfig,
  name: (part: string) => string,
): { key: ReplicationKeyStack; replica: ReplicaStack; target: SecondCopyTarget } | undefined {
  const region = replicaRegionOf(config);
  if (region === undefined || config.account === undefined || config.region === undefined) return undefined;
  const key = new ReplicationKeyStack(app, name('replication-key'), {
    env: { account: config.account, region: config.region },
    config,
    crossRegionReferences: true,
    description: `Verity ${config.stage}: multi-Region key of the second copy`,
  });
  const replica = new ReplicaStack(app, name('replica'), {
    env: { account: config.account, region },
    config,
    account: config.account,
    primaryKeyArn: key.key.attrArn,
    crossRegionReferences: true,
    description: `Verity ${config.stage}: second copy of recordings and table backups in ${region}`,
  });
  return { key, replica, target: { region, account: config.account, keyId: key.key.ref } };
}
