import { Annotations, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IDomainName, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { IScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { ENDPOINT_GROUPS, type Endpoint, type EndpointGroup } from '#shared/contract/endpoint.ts';
import type { StageConfig } from '../config/stage-config.ts';
import { ApiStage } from '../constructs/api-stage.ts';
import { NOT_BUILT_HANDLER, handlerEntry } from '../constructs/paths.ts';
import { type BucketAccess, VerityFunction } from '../constructs/verity-function.ts';
import { bindPlatform, type PlatformResources } from './platform-bindings.ts';

/** The part of an endpoint the infrastructure needs. */
export type RoutedEndpoint = Pick<Endpoint, 'id' | 'method' | 'fullPath' | 'group' | 'auth'>;

export interface ApiStackProps extends StackProps {
  readonly config: StageConfig;
  readonly httpApi: IHttpApi;
  /** The `$default` stage's access logs and the API's own domain (gateway stack); the stage is made here, after the routes. */
  readonly stage: { readonly accessLogs: ILogGroup; readonly domainName?: IDomainName };
  readonly platform: PlatformResources;
  /** Every declared endpoint (shared/contract/registry.ts); one route each. */
  readonly endpoints: readonly RoutedEndpoint[];
  /** Identity settings the sign-in endpoints hand to the portal. */
  readonly identity: {
    readonly portalUrl: string;
    readonly tenants: { readonly userPoolId: string; readonly clientId: string; readonly authBaseUrl: string };
    readonly staff: { readonly userPoolId: string; readonly clientId: string; readonly authBaseUrl: string };
  };
  /** Where transfers schedules go, invoking the transfer jobs function; absent while that function is not built. */
  readonly transferScheduling?: { readonly group: IScheduleGroup; readonly role: IRole; readonly target: VerityFunction };
  /** The jobs function the device API starts payload processing on; absent while the jobs function is not built. */
  readonly jobsFunction?: VerityFunction;
  /** The transfer jobs function the transfers function starts transfers on; absent while it is not built. */
  readonly transferJobsFunction?: VerityFunction;
  /** Finds `lambdas/<group>/handler.ts`; tests replace it. */
  readonly resolveEntry?: (group: EndpointGroup) => string | undefined;
}

/** Payload bucket access per group (least privilege); groups not listed only learn the bucket names. */
const BUCKET_ACCESS: Partial<Record<EndpointGroup, { raw: BucketAccess; processed: BucketAccess }>> = {
  'device-api': { raw: 'put', processed: 'name' },
  payloads: { raw: 'read', processed: 'retain' },
  'device-data': { raw: 'name', processed: 'read' },
  transfers: { raw: 'name', processed: 'read' },
  'account-data': { raw: 'name', processed: 'retain' },
  // Pre-signs the export file's upload and checks its size before the import starts (HeadObject needs read).
  migrations: { raw: 'readWrite', processed: 'name' },
  // A policy's preview reads the text of the period's messages (processed copies) to evaluate its terms.
  supervision: { raw: 'name', processed: 'read' },
};

/**
 * The job functions each group's code starts through the JobRunner, which sends `transfer` to the transfer jobs
 * function and every other job to the jobs function (lambdas/core/adapters/wiring/job-runner.ts). A group gets invoke
 * permission and the name of exactly these; a start on any other fails, naming the missing variable.
 */
const STARTS_JOBS_ON: Partial<Record<EndpointGroup, readonly ('jobs' | 'transfer-jobs')[]>> = {
  // The processing of a payload whose object arrived before its registration.
  'device-api': ['jobs'],
  // The import of a legacy export.
  migrations: ['jobs'],
  // A large legal hold's walk over the recordings' objects, and a lengthened retention's.
  'account-data': ['jobs'],
  // A policy applied to a past period (`supervision-apply`), whose progress the policy shows.
  supervision: ['jobs'],
  // An activity trail's export (`activity-export`), whose progress the export shows.
  audit: ['jobs'],
  // Run now and re-run.
  transfers: ['transfer-jobs'],
  // A production (`production`), packaged and delivered as a transfer is.
  cases: ['transfer-jobs'],
};

const METHODS: Record<Endpoint['method'], HttpMethod> = {
  GET: HttpMethod.GET,
  POST: HttpMethod.POST,
  PUT: HttpMethod.PUT,
  DELETE: HttpMethod.DELETE,
};

/** `METHOD /path`, the HTTP API route key of an endpoint. */
export function routeKeyOf(endpoint: Pick<Endpoint, 'method' | 'fullPath'>): string {
  return `${endpoint.method} ${endpoint.fullPath}`;
}

/**
 * Refuses route sets API Gateway would reject at deploy time (or route ambiguously): duplicate route keys, and
 * two routes differing only in a parameter's name at the same position.
 */
export function checkRoutes(endpoints: readonly RoutedEndpoint[]): void {
  const shapes = new Map<string, string>();
  for (const endpoint of endpoints) {
    if (!/^\/[A-Za-z0-9_.{}/-]*$/.test(endpoint.fullPath) || endpoint.fullPath.includes('//')) {
      throw new Error(`endpoint ${endpoint.id}: path "${endpoint.fullPath}" is not a valid route path`);
    }
    const shape = `${endpoint.method} ${endpoint.fullPath.replace(/\{[^}]*\}/g, '{}')}`;
    const other = shapes.get(shape);
    if (other !== undefined) throw new Error(`endpoints ${other} and ${endpoint.id} share the route ${routeKeyOf(endpoint)}`);
    shapes.set(shape, endpoint.id);
  }
}

/**
 * The API's functions and routes: one VerityFunction per endpoint group, one route per declared endpoint.
 * Authentication happens in the handlers (lambdas/core), not in a gateway authorizer: the API accepts tokens
 * from two user pools, tenants' own client-app issuers and our device tokens, and support mode uses its own
 * Authorization scheme, which no JWT authorizer can express.
 */
export class ApiStack extends Stack {
  readonly functions: ReadonlyMap<EndpointGroup, VerityFunction>;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config, identity } = props;
    checkRoutes(props.endpoints);
    const resolveEntry = props.resolveEntry ?? handlerEntry;

    const functions = new Map<EndpointGroup, VerityFunction>();
    const integrations = new Map<EndpointGroup, HttpLambdaIntegration>();
    for (const group of ENDPOINT_GROUPS) {
      const entry = resolveEntry(group);
      if (entry === undefined) {
        Annotations.of(this).addWarningV2(
          `verity:handler-missing:${group}`,
          `lambdas/${group}/handler.ts does not exist: the ${group} routes deploy a handler answering 501.`,
        );
      }
      const fn = new VerityFunction(this, `Group-${group}`, {
        entry: entry ?? NOT_BUILT_HANDLER,
        description: `Verity ${config.stage} ${group} endpoints`,
        logRetention: config.logRetentionDays,
      });
      bindPlatform(fn, props.platform, BUCKET_ACCESS[group] ?? { raw: 'name', processed: 'name' });
      // The portal's origin: sign-in sends the browser back to it (identity), and a phone that authenticates is given
      // its link (device-api). test/infra/env-wiring.test.ts fails when a function's code reads a variable not set here.
      if (group === 'identity' || group === 'device-api') fn.setEnv('PORTAL_URL', identity.portalUrl);
      if (group === 'identity') {
        fn.setEnv('TENANT_USER_POOL_ID', identity.tenants.userPoolId)
          .setEnv('TENANT_CLIENT_ID', identity.tenants.clientId)
          .setEnv('TENANT_AUTH_BASE_URL', identity.tenants.authBaseUrl)
          .setEnv('STAFF_USER_POOL_ID', identity.staff.userPoolId)
          .setEnv('STAFF_CLIENT_ID', identity.staff.clientId)
          .setEnv('STAFF_AUTH_BASE_URL', identity.staff.authBaseUrl);
      }
      if (group === 'transfers' && props.transferScheduling !== undefined) {
        const { group: scheduleGroup, role, target } = props.transferScheduling;
        fn.bindScheduler(scheduleGroup, role, target.function);
      }
      if (group === 'audit') {
        // An export's download link (GET activities/exports/{export_id}) reads the exports' prefix only, and the
        // signing key's public half is what a firm verifies exports with (GET activities/signing-key).
        fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [props.platform.processedBucket.arnForObjects('*/exports/activity/*')] }));
        props.platform.processedBucket.encryptionKey?.grant(fn.role, 'kms:Decrypt');
        NagSuppressions.addResourceSuppressions(
          fn.role,
          [{ id: 'AwsSolutions-IAM5', reason: 'GetObject on the exported trail files of every tenant only (<tenant>/exports/activity/<id>.tar).', appliesTo: [{ regex: '/^Resource::.*ProcessedPayloadsBucket.*\\/\\*\\/exports\\/activity\\/\\*$/' }] }],
          true,
        );
        props.platform.auditSigningKey.grant(fn.role, 'kms:GetPublicKey');
        fn.setEnv('AUDIT_SIGNING_KEY_ID', props.platform.auditSigningKey.keyArn);
      }
      if (group === 'cases') {
        // A production delivered as a download: its link (GET productions/{ref}/download) reads the productions' prefix only.
        fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [props.platform.processedBucket.arnForObjects('productions/*')] }));
        props.platform.processedBucket.encryptionKey?.grant(fn.role, 'kms:Decrypt');
        NagSuppressions.addResourceSuppressions(
          fn.role,
          [{ id: 'AwsSolutions-IAM5', reason: 'GetObject on the productions delivered as downloads only (productions/<tenant>/<reference>/<file>).', appliesTo: [{ regex: '/^Resource::.*ProcessedPayloadsBucket.*\\/productions\\/\\*$/' }] }],
          true,
        );
      }
      for (const jobFunction of STARTS_JOBS_ON[group] ?? []) {
        if (jobFunction === 'jobs' && props.jobsFunction !== undefined) fn.bindJobRunner(props.jobsFunction.function, 'JOBS_FUNCTION_NAME');
        if (jobFunction === 'transfer-jobs' && props.transferJobsFunction !== undefined) {
          fn.bindJobRunner(props.transferJobsFunction.function, 'TRANSFER_JOBS_FUNCTION_NAME');
        }
      }
      functions.set(group, fn);
      // One integration and one invoke permission per function (not per route): ~110 routes would otherwise
      // add ~220 resources and push the stack towards CloudFormation's 500-resource limit.
      integrations.set(group, new HttpLambdaIntegration(`${group}-integration`, fn.function, { scopePermissionToRoute: false }));
    }
    this.functions = functions;

    const routes: HttpRoute[] = [];
    for (const endpoint of props.endpoints) {
      const integration = integrations.get(endpoint.group);
      if (integration === undefined) throw new Error(`endpoint ${endpoint.id}: unknown group "${endpoint.group}"`);
      const route = new HttpRoute(this, `Route-${endpoint.id}`, {
        httpApi: props.httpApi,
        routeKey: HttpRouteKey.with(endpoint.fullPath, METHODS[endpoint.method]),
        integration,
      });
      routes.push(route);
      NagSuppressions.addResourceSuppressions(route, [
        {
          id: 'AwsSolutions-APIG4',
          reason: 'Authorization is enforced in the handler (lambdas/core JWT verification + action permissions): two user pools, tenant client-app issuers, device tokens and the support-mode scheme cannot be one gateway authorizer.',
        },
      ]);
    }
    const { stage } = new ApiStage(this, 'Stage', {
      config,
      httpApi: props.httpApi,
      accessLogs: props.stage.accessLogs,
      domainName: props.stage.domainName,
      endpoints: props.endpoints,
    });
    for (const route of routes) stage.node.addDependency(route);
  }
}
