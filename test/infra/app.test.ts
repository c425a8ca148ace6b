import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import { ENDPOINT_GROUPS } from '#shared/contract/endpoint.ts';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { PLATFORM_SCHEDULES } from '../../lib/config/job-schedules.ts';
import { NOT_BUILT_HANDLER, handlerEntry } from '../../lib/constructs/paths.ts';
import { routeKeyOf } from '../../lib/stacks/api-stack.ts';
import { API_PATH_PATTERNS } from '../../lib/stacks/web-stack.ts';
import type { VerityStacks } from '../../lib/verity-app.ts';
import { synthApp } from './synth.ts';

/**
 * The dev stage as `cdk synth` builds it, with the real endpoint registry. The jobs handler falls back to the
 * placeholder so the schedules are synthesised whether or not lambdas/jobs exists yet.
 */
let stacks: VerityStacks;
let t: Record<keyof VerityStacks, Template>;
let cleanup: () => void = () => {};
/** The scan bucket's logical id in the data stack: other stacks name it in their imports of its name and ARN. */
let scanBucketId: string;
const mentionsScanBucket = (value: unknown) => JSON.stringify(value).includes(scanBucketId);

afterAll(() => cleanup());
beforeAll(() => {
  ({ stacks, cleanup } = synthApp({
    endpoints: ENDPOINTS,
    resolveEntry: (folder) => handlerEntry(folder) ?? (folder === 'jobs' ? NOT_BUILT_HANDLER : undefined),
  }));
  t = Object.fromEntries(Object.entries(stacks).map(([name, stack]) => [name, Template.fromStack(stack)])) as typeof t;
  scanBucketId = stacks.data.getLogicalId(stacks.data.scanBucket.node.defaultChild as never);
});

describe('data stack', () => {
  it('keys the table exactly as TABLE_KEYS, on demand, with PITR, deletion protection, a CMK and TTL', () => {
    t.data.resourceCountIs('AWS::DynamoDB::Table', 1);
    t.data.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: Match.anyValue() },
      TimeToLiveSpecification: { AttributeName: TABLE_KEYS.ttlAttribute, Enabled: true },
      GlobalSecondaryIndexes: TABLE_KEYS.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    });
    t.data.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    t.data.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });

  it('keeps the generic indexes, then byProcessedAt, and adds byThread last, within the 20 a table may hold', () => {
    const [table] = Object.values(t.data.findResources('AWS::DynamoDB::Table')) as Array<{ Properties: { GlobalSecondaryIndexes: Array<{ IndexName: string; KeySchema: unknown }> } }>;
    const indexes = table?.Properties.GlobalSecondaryIndexes ?? [];
    expect(indexes.map((index) => index.IndexName)).toEqual(['gsi1', 'gsi2', 'gsi3', 'byProcessedAt', 'byThread']);
    expect(indexes.at(-2)?.KeySchema).toEqual([
      { AttributeName: 'by_processed_at_pk', KeyType: 'HASH' },
      { AttributeName: 'by_processed_at_sk', KeyType: 'RANGE' },
    ]);
    expect(indexes.at(-1)?.KeySchema).toEqual([
      { AttributeName: 'by_thread_pk', KeyType: 'HASH' },
      { AttributeName: 'by_thread_sk', KeyType: 'RANGE' },
    ]);
    expect(indexes.length).toBeLessThanOrEqual(20);
  });

  it('makes both payload buckets versioned, Object Lock, SSE-KMS, private and logged', () => {
    const buckets = t.data.findResources('AWS::S3::Bucket', { Properties: { ObjectLockEnabled: true } });
    expect(Object.keys(buckets)).toHaveLength(2);
    for (const bucket of Object.values(buckets)) {
      expect(bucket.Properties).toMatchObject({
        VersioningConfiguration: { Status: 'Enabled' },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms' }, BucketKeyEnabled: true }] },
        LoggingConfiguration: { DestinationBucketName: expect.anything() },
      });
      // The dev stage sets no bucket-wide default: retention comes per object from the tenant's policy.
      expect(bucket.Properties.ObjectLockConfiguration).toBeUndefined();
      expect(bucket.DeletionPolicy).toBe('Retain');
    }
  });

  it('has every function lock processed recordings in COMPLIANCE mode unless the stage says otherwise', () => {
    const variables = [
      ...Object.values(t.api.findResources('AWS::Lambda::Function')),
      ...Object.values(t.jobs.findResources('AWS::Lambda::Function')),
    ]
      .map((fn) => fn.Properties.Environment?.Variables as Record<string, unknown> | undefined)
      .filter((env) => env?.VERITY_MODE === 'aws');
    expect(variables.length).toBeGreaterThan(5);
    for (const env of variables) expect(env?.OBJECT_LOCK_MODE).toBe('COMPLIANCE');
  });

  it('lets browsers read the processed bucket through pre-signed links (CORS GET and HEAD only) and only upload to the raw one', () => {
    const processed = t.data.toJSON().Resources[stacks.data.getLogicalId(stacks.data.processedBucket.node.defaultChild as never)];
    expect(processed.Properties.CorsConfiguration).toEqual({
      CorsRules: [{ AllowedMethods: ['GET', 'HEAD'], AllowedOrigins: ['*'], AllowedHeaders: ['Range'], ExposedHeaders: ['Content-Length', 'Content-Range', 'Accept-Ranges'] }],
    });
    const raw = t.data.toJSON().Resources[stacks.data.getLogicalId(stacks.data.rawBucket.node.defaultChild as never)];
    expect(raw.Properties.CorsConfiguration).toEqual({
      CorsRules: [{ AllowedMethods: ['PUT'], AllowedOrigins: ['*'], AllowedHeaders: ['Content-Type', 'x-amz-checksum-*'], ExposedHeaders: ['ETag'] }],
    });
  });

  it('makes the scan bucket a private, SSE-KMS, logged quarantine whose copies really go within a day', () => {
    const bucket = t.data.toJSON().Resources[scanBucketId];
    expect(bucket.Type).toBe('AWS::S3::Bucket');
    // No versions and no Object Lock: a deleted plaintext copy must not survive as a noncurrent version.
    expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
    expect(bucket.Properties.ObjectLockEnabled).toBeUndefined();
    expect(bucket.Properties.ObjectLockConfiguration).toBeUndefined();
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: expect.anything() }, BucketKeyEnabled: true }],
      },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      LoggingConfiguration: { DestinationBucketName: expect.anything(), LogFilePrefix: 'ScanQuarantine/' },
    });
    expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 1, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
    );
    expect(bucket.DeletionPolicy).toBe('Retain');
  });

  it('denies non-TLS and pre-1.2 TLS requests on every bucket', () => {
    const bucketIds = Object.keys(t.data.findResources('AWS::S3::Bucket'));
    const policies = Object.values(t.data.findResources('AWS::S3::BucketPolicy'));
    expect(bucketIds).toHaveLength(4);
    for (const id of bucketIds) {
      const policy = policies.find((p) => JSON.stringify(p.Properties.Bucket).includes(id));
      expect(policy, `bucket policy of ${id}`).toBeDefined();
      const statements = policy!.Properties.PolicyDocument.Statement as { Effect: string; Condition?: Record<string, unknown> }[];
      expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
      expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } } }));
    }
  });

  it('keeps the cursor secret in Secrets Manager, encrypted with the CMK', () => {
    t.data.hasResourceProperties('AWS::SecretsManager::Secret', { KmsKeyId: Match.anyValue(), GenerateSecretString: { PasswordLength: 64 } });
  });
});

describe('functions', () => {
  it('runs every function on nodejs22.x, arm64, traced, with its own log group', () => {
    for (const template of [t.api, t.jobs]) {
      const functions = Object.values(template.findResources('AWS::Lambda::Function'));
      expect(functions.length).toBeGreaterThan(0);
      for (const fn of functions) {
        expect(fn.Properties).toMatchObject({
          Runtime: 'nodejs22.x',
          Architectures: ['arm64'],
          TracingConfig: { Mode: 'Active' },
          LoggingConfig: { LogGroup: expect.anything() },
          Handler: 'index.handler',
        });
      }
    }
    t.api.resourceCountIs('AWS::Lambda::Function', ENDPOINT_GROUPS.length);
    t.api.resourceCountIs('AWS::Logs::LogGroup', ENDPOINT_GROUPS.length);
  });

  it('gives every function what lambdas/core/config.ts requires, the cursor secret only as a dynamic reference', () => {
    const required = ['VERITY_MODE', 'TABLE_NAME', 'RAW_BUCKET', 'PROCESSED_BUCKET', 'OIDC_ISSUER', 'OIDC_AUDIENCES', 'CURSOR_SECRET', 'KMS_KEY_ID'];
    for (const template of [t.api, t.jobs]) {
      for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
        const variables = fn.Properties.Environment.Variables as Record<string, unknown>;
        expect(Object.keys(variables)).toEqual(expect.arrayContaining(required));
        expect(variables.VERITY_MODE).toBe('aws');
        expect(JSON.stringify(variables.CURSOR_SECRET)).toMatch(/^\{"Fn::Join":\["",\["\{\{resolve:secretsmanager:/);
        for (const reserved of ['AWS_REGION', 'AWS_ACCESS_KEY_ID', '_HANDLER']) expect(variables).not.toHaveProperty(reserved);
      }
    }
  });

  it('uses no AWS managed policy: each role may write only its own log group', () => {
    for (const template of [t.api, t.jobs]) {
      for (const role of Object.values(template.findResources('AWS::IAM::Role'))) {
        expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      }
    }
  });

  it('gives payload bucket access only to the groups that need it', () => {
    const policyOf = (group: string) => {
      const role = stacks.api.functions.get(group as never)!.role;
      return JSON.stringify(t.api.toJSON().Resources[stacks.api.getLogicalId(role.node.findChild('DefaultPolicy').node.defaultChild as never)]);
    };
    expect(policyOf('devices')).not.toContain('s3:');
    expect(policyOf('device-api')).toContain('s3:PutObject');
    expect(policyOf('device-api')).not.toContain('s3:GetObject');
    expect(policyOf('payloads')).toContain('s3:PutObjectLegalHold');
    expect(policyOf('payloads')).not.toContain('s3:BypassGovernanceRetention');
    // Supervision's preview reads message text from the processed copies, and writes no object.
    expect(policyOf('supervision')).toContain('s3:GetObject');
    expect(policyOf('supervision')).not.toContain('s3:PutObject');
    // Capture completeness reads counters and ledger entries from the table only.
    expect(policyOf('completeness')).not.toContain('s3:');
  });
  it('gives the scan bucket to the jobs function only, to write, tag-read and delete copies, never read them', () => {
    const jobsResources = t.jobs.toJSON().Resources;
    const jobs = stacks.jobs.jobs!;
    const jobsEnv = jobsResources[stacks.jobs.getLogicalId(jobs.function.node.defaultChild as never)].Properties.Environment.Variables;
    expect(mentionsScanBucket(jobsEnv.SCAN_BUCKET)).toBe(true);
    for (const [group, fn] of stacks.api.functions) {
      const env = t.api.toJSON().Resources[stacks.api.getLogicalId(fn.function.node.defaultChild as never)].Properties.Environment.Variables;
      expect(env.SCAN_BUCKET, group).toBeUndefined();
      expect(mentionsScanBucket(t.api.toJSON().Resources), group).toBe(false);
    }

    const policy = jobsResources[stacks.jobs.getLogicalId(jobs.role.node.findChild('DefaultPolicy').node.defaultChild as never)];
    const onScanBucket = (policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]).filter((statement) =>
      mentionsScanBucket(statement.Resource),
    );
    const actions = onScanBucket.flatMap((statement) => [statement.Action].flat());
    expect(new Set(actions)).toEqual(new Set(['s3:PutObject', 's3:GetObjectTagging', 's3:DeleteObject', 's3:ListBucket']));
    expect(JSON.stringify(policy)).toContain('kms:GenerateDataKey*');
  });
});

describe('api', () => {
  it('declares one route per registry endpoint, each on its group function', () => {
    t.api.resourceCountIs('AWS::ApiGatewayV2::Route', ENDPOINTS.length);
    const routes = Object.values(t.api.findResources('AWS::ApiGatewayV2::Route'));
    const integrations = t.api.findResources('AWS::ApiGatewayV2::Integration');
    const functions = t.api.findResources('AWS::Lambda::Function');
    const keys = routes.map((route) => route.Properties.RouteKey as string);
    expect(new Set(keys)).toEqual(new Set(ENDPOINTS.map(routeKeyOf)));
    for (const endpoint of ENDPOINTS) {
      const route = routes.find((r) => r.Properties.RouteKey === routeKeyOf(endpoint))!;
      const integrationId = (route.Properties.Target['Fn::Join'][1] as unknown[])[1] as { Ref: string };
      const uri = JSON.stringify(integrations[integrationId.Ref]!.Properties.IntegrationUri);
      const functionId = Object.keys(functions).find((id) => uri.includes(id))!;
      expect(functions[functionId]!.Properties.Description, endpoint.id).toBe(`Verity dev ${endpoint.group} endpoints`);
    }
  });

  it('deploys the supervision routes on their own function, none of which deletes a review item or its history', () => {
    const routes = Object.values(t.api.findResources('AWS::ApiGatewayV2::Route')).map((route) => route.Properties.RouteKey as string);
    const supervision = routes.filter((key) => key.includes('/supervision/'));
    expect(supervision).toHaveLength(ENDPOINTS.filter((endpoint) => endpoint.group === 'supervision').length);
    expect(stacks.api.functions.get('supervision')?.entry).toMatch(/lambdas\/supervision\/handler\.ts$/);
    // Evidence of review is never removed through the API: the one supervision DELETE is a policy's.
    expect(supervision.filter((key) => key.startsWith('DELETE ')).map((key) => key.replace(/^DELETE \S*\/supervision\//, ''))).toEqual(['policies/{policy_reference}']);
  });

  it('deploys the capture completeness reports on their own function, every one a read', () => {
    const routes = Object.values(t.api.findResources('AWS::ApiGatewayV2::Route')).map((route) => route.Properties.RouteKey as string);
    const completeness = ENDPOINTS.filter((endpoint) => endpoint.group === 'completeness');
    expect(completeness.length).toBeGreaterThan(0);
    for (const endpoint of completeness) expect(routes, endpoint.id).toContain(routeKeyOf(endpoint));
    expect(completeness.map((endpoint) => endpoint.method)).toEqual(completeness.map(() => 'GET'));
    expect(stacks.api.functions.get('completeness')?.entry).toMatch(/lambdas\/completeness\/handler\.ts$/);
  });

  it('shares one integration and one invoke permission per function', () => {
    t.api.resourceCountIs('AWS::ApiGatewayV2::Integration', ENDPOINT_GROUPS.length);
    t.api.resourceCountIs('AWS::Lambda::Permission', ENDPOINT_GROUPS.length);
    t.api.hasResourceProperties('AWS::ApiGatewayV2::Integration', { IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
  });

  it('logs access and throttles the $default stage', () => {
    t.api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context.requestId') },
      DefaultRouteSettings: { ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 },
    });
  });
});

describe('auth', () => {
  it('creates staff and tenant pools: admin-created users, required TOTP, strong passwords, Plus threat protection', () => {
    t.auth.resourceCountIs('AWS::Cognito::UserPool', 2);
    const pools = Object.values(t.auth.findResources('AWS::Cognito::UserPool'));
    for (const pool of pools) {
      expect(pool.Properties).toMatchObject({
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        MfaConfiguration: 'ON',
        EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
        Policies: { PasswordPolicy: { MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true } },
        UserPoolTier: 'PLUS',
        UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
        DeletionProtection: 'ACTIVE',
      });
    }
    const schemas = pools.map((pool) => JSON.stringify(pool.Properties.Schema ?? []));
    expect(schemas.filter((schema) => schema.includes('"Name":"client"'))).toHaveLength(1);
  });

  it('gives each pool a public code-flow client calling back to <portal>/sign-in, never writing custom:client', () => {
    const clients = Object.values(t.auth.findResources('AWS::Cognito::UserPoolClient'));
    expect(clients).toHaveLength(2);
    for (const client of clients) {
      expect(client.Properties.GenerateSecret).toBe(false);
      expect(client.Properties.AllowedOAuthFlows).toEqual(['code']);
      expect(client.Properties.AllowedOAuthScopes).toEqual(expect.arrayContaining(['openid']));
      const callbacks = JSON.stringify(client.Properties.CallbackURLs);
      expect(callbacks).toContain('/sign-in');
      expect(callbacks).toContain('http://localhost:3000/sign-in');
      expect(JSON.stringify(client.Properties.WriteAttributes)).not.toContain('custom:');
    }
    t.auth.resourceCountIs('AWS::Cognito::UserPoolDomain', 2);
    t.auth.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'verity-dev-tenants' });
  });
});

describe('jobs', () => {
  it('turns every platform schedule into an EventBridge schedule invoking the jobs function', () => {
    t.jobs.resourceCountIs('AWS::Scheduler::Schedule', PLATFORM_SCHEDULES.length);
    for (const schedule of PLATFORM_SCHEDULES) {
      t.jobs.hasResourceProperties('AWS::Scheduler::Schedule', {
        Name: schedule.name,
        ScheduleExpression: schedule.expression,
        Target: { Arn: Match.anyValue(), RoleArn: Match.anyValue(), Input: JSON.stringify(schedule.target) },
      });
    }
    t.jobs.resourceCountIs('AWS::Scheduler::ScheduleGroup', 2);
    t.jobs.hasResourceProperties('AWS::Events::Rule', { EventPattern: { source: ['aws.s3'], 'detail-type': ['Object Created'] } });
  });

  it('lets the audit function read only exported trail files and the signing key\'s public half, and start the export job', () => {
    const audit = stacks.api.functions.get('audit')!;
    const resources = t.api.toJSON().Resources;
    const env = resources[stacks.api.getLogicalId(audit.function.node.defaultChild as never)].Properties.Environment.Variables;
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['AUDIT_SIGNING_KEY_ID', 'JOBS_FUNCTION_NAME']));
    const policy = JSON.stringify(resources[stacks.api.getLogicalId(audit.role.node.findChild('DefaultPolicy').node.defaultChild as never)]);
    expect(policy).toContain('s3:GetObject');
    expect(policy).toContain('/*/exports/activity/*');
    expect(policy).toContain('kms:GetPublicKey');
    for (const action of ['s3:GetObject*', 's3:PutObject', 's3:DeleteObject', 's3:List', 'kms:Sign']) expect(policy, action).not.toContain(action);
    const jobsPolicy = JSON.stringify(t.jobs.toJSON().Resources[stacks.jobs.getLogicalId(stacks.jobs.jobs!.role.node.findChild('DefaultPolicy').node.defaultChild as never)]);
    expect(jobsPolicy).toContain('kms:GetPublicKey');
  });

  it('lets the transfers function manage schedules in the transfers group only', () => {
    const transfers = stacks.api.functions.get('transfers')!;
    const env = t.api.toJSON().Resources[stacks.api.getLogicalId(transfers.function.node.defaultChild as never)].Properties.Environment.Variables;
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['SCHEDULE_GROUP', 'SCHEDULER_TARGET_ARN', 'SCHEDULER_ROLE_ARN']));
    expect(env.SCHEDULE_GROUP).toBe('verity-dev-transfers');
    const policy = JSON.stringify(t.api.toJSON().Resources[stacks.api.getLogicalId(transfers.role.node.findChild('DefaultPolicy').node.defaultChild as never)]);
    expect(policy).toContain('scheduler:CreateSchedule');
    expect(policy).toContain('schedule/verity-dev-transfers/*');
    expect(policy).not.toContain('verity-dev-platform');
    expect(policy).toContain('iam:PassRole');
    // Only the transfers function schedules anything.
    const devices = stacks.api.functions.get('devices')!;
    expect(JSON.stringify(t.api.toJSON().Resources[stacks.api.getLogicalId(devices.role.node.findChild('DefaultPolicy').node.defaultChild as never)])).not.toContain('scheduler:');
  });

  it('lets the device API, the migrations function (import), account data (legal hold and retention walks), supervision (apply a policy to a past period) and audit (export the activity trail) start jobs on the jobs function, the transfers function (run now, re-run) and the cases function (a production) on the transfer jobs function, and no other function start any', () => {
    const resources = t.api.toJSON().Resources;
    const envOf = (fn: NonNullable<ReturnType<typeof stacks.api.functions.get>>) =>
      resources[stacks.api.getLogicalId(fn.function.node.defaultChild as never)].Properties.Environment.Variables as Record<string, unknown>;
    const policyOf = (fn: NonNullable<ReturnType<typeof stacks.api.functions.get>>) =>
      JSON.stringify(resources[stacks.api.getLogicalId(fn.role.node.findChild('DefaultPolicy').node.defaultChild as never)] ?? {});
    // The api stack names a jobs-stack function through an import of its ARN export, which carries its logical id.
    const jobsFunctionId = stacks.jobs.getLogicalId(stacks.jobs.jobs!.function.node.defaultChild as never);
    const transferJobsFunctionId = stacks.jobs.getLogicalId(stacks.jobs.transferJobs!.function.node.defaultChild as never);
    const jobsStarters = new Set(['device-api', 'migrations', 'account-data', 'supervision', 'audit']);
    for (const [group, fn] of stacks.api.functions) {
      const env = envOf(fn);
      const policy = policyOf(fn);
      if (jobsStarters.has(group)) {
        expect(JSON.stringify(env.JOBS_FUNCTION_NAME), group).toContain(`Ref${jobsFunctionId}`);
        expect(policy, group).toContain('lambda:InvokeFunction');
        expect(policy, group).toContain(`FnGetAtt${jobsFunctionId}Arn`);
      } else {
        expect(env.JOBS_FUNCTION_NAME, group).toBeUndefined();
        expect(policy, group).not.toContain(`FnGetAtt${jobsFunctionId}Arn`);
      }
      if (group === 'transfers' || group === 'cases') {
        expect(JSON.stringify(env.TRANSFER_JOBS_FUNCTION_NAME), group).toContain(`Ref${transferJobsFunctionId}`);
        expect(policy, group).toContain('lambda:InvokeFunction');
        expect(policy, group).toContain(`FnGetAtt${transferJobsFunctionId}Arn`);
      } else {
        expect(env.TRANSFER_JOBS_FUNCTION_NAME, group).toBeUndefined();
        expect(policy, group).not.toContain(`FnGetAtt${transferJobsFunctionId}Arn`);
      }
      if (!jobsStarters.has(group) && group !== 'transfers' && group !== 'cases') expect(policy, group).not.toContain('lambda:InvokeFunction');
    }
  });

  it("makes the tenants' transfer schedules invoke the transfer jobs function, which the scheduler role may invoke", () => {
    const transfers = stacks.api.functions.get('transfers')!;
    const env = t.api.toJSON().Resources[stacks.api.getLogicalId(transfers.function.node.defaultChild as never)].Properties.Environment.Variables;
    const jobsFunctionId = stacks.jobs.getLogicalId(stacks.jobs.jobs!.function.node.defaultChild as never);
    const transferJobsFunctionId = stacks.jobs.getLogicalId(stacks.jobs.transferJobs!.function.node.defaultChild as never);
    expect(JSON.stringify(env.SCHEDULER_TARGET_ARN)).toContain(`FnGetAtt${transferJobsFunctionId}Arn`);
    expect(JSON.stringify(env.SCHEDULER_TARGET_ARN)).not.toContain(jobsFunctionId);
    const schedulerPolicy = Object.values(t.jobs.findResources('AWS::IAM::Policy')).find(
      (policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: stacks.jobs.getLogicalId(stacks.jobs.schedulerRole.node.defaultChild as never) }]),
    )!;
    const invokes = (schedulerPolicy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]).filter((statement) =>
      [statement.Action].flat().includes('lambda:InvokeFunction'),
    );
    expect(JSON.stringify(invokes)).toContain(`"Fn::GetAtt":["${transferJobsFunctionId}","Arn"]`);
    // The platform schedules still invoke the jobs function, and only it.
    for (const schedule of Object.values(t.jobs.findResources('AWS::Scheduler::Schedule'))) {
      expect(schedule.Properties.Target.Arn).toEqual({ 'Fn::GetAtt': [jobsFunctionId, 'Arn'] });
    }
  });

  it('gives the transfer jobs function what the transfer and production jobs need and no more: reads of both payload buckets, writes of productions only, no scan bucket or signing key', () => {
    const resources = t.jobs.toJSON().Resources;
    const transferJobs = stacks.jobs.transferJobs!;
    const properties = resources[stacks.jobs.getLogicalId(transferJobs.function.node.defaultChild as never)].Properties;
    expect(properties).toMatchObject({ FunctionName: 'verity-dev-transfer-jobs', MemorySize: 1024, Timeout: 300, Handler: 'index.handler' });
    expect(properties.Environment.Variables).toMatchObject({ VERITY_MODE: 'aws', TRANSFER_JOBS_FUNCTION_NAME: 'verity-dev-transfer-jobs' });
    for (const variable of ['JOBS_FUNCTION_NAME', 'SCAN_BUCKET', 'AUDIT_SIGNING_KEY_ID', 'SCHEDULE_GROUP']) expect(properties.Environment.Variables[variable], variable).toBeUndefined();
    const policy = JSON.stringify(resources[stacks.jobs.getLogicalId(transferJobs.role.node.findChild('DefaultPolicy').node.defaultChild as never)]);
    expect(policy).toContain('dynamodb:PutItem');
    expect(policy).toContain('s3:GetObject*');
    expect(policy).toContain('kms:Decrypt');
    for (const action of ['s3:DeleteObject', 's3:PutObjectLegalHold', 's3:PutObjectRetention', 'kms:Sign', 'scheduler:']) expect(policy, action).not.toContain(action);
    // It writes one thing: a production delivered as a download, under the processed bucket's productions/ prefix.
    const statements = JSON.parse(policy).Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>;
    const writes = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:Put')));
    expect(writes.map((statement) => statement.Action)).toEqual(['s3:PutObject']);
    expect(JSON.stringify(writes[0]?.Resource)).toContain('/productions/*');
    // The jobs function keeps what processing and the other jobs need, and gave up the delivery role.
    const jobsPolicy = JSON.stringify(resources[stacks.jobs.getLogicalId(stacks.jobs.jobs!.role.node.findChild('DefaultPolicy').node.defaultChild as never)]);
    expect(jobsPolicy).toContain('s3:PutObjectLegalHold');
    expect(jobsPolicy).toContain('kms:Sign');
    expect(jobsPolicy).not.toContain('sts:AssumeRole');
  });
});

describe('malware scanning', () => {
  const jobsResources = () => t.jobs.toJSON().Resources;

  it('protects the scan bucket with a GuardDuty plan that tags each object with its verdict', () => {
    const plans = Object.values(t.jobs.findResources('AWS::GuardDuty::MalwareProtectionPlan'));
    expect(plans).toHaveLength(1);
    const plan = plans[0]!.Properties;
    expect(mentionsScanBucket(plan.ProtectedResource.S3Bucket.BucketName)).toBe(true);
    expect(plan.ProtectedResource.S3Bucket.ObjectPrefixes).toBeUndefined();
    expect(plan.Actions).toEqual({ Tagging: { Status: 'ENABLED' } });

    const [roleId] = plan.Role['Fn::GetAtt'] as [string, string];
    const role = jobsResources()[roleId];
    expect(role.Type).toBe('AWS::IAM::Role');
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sts:AssumeRole',
        Principal: { Service: 'malware-protection-plan.guardduty.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': expect.anything() } },
      }),
    ]);
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('lets GuardDuty do what AWS documents for Malware Protection for S3, on the scan bucket only', () => {
    const role = stacks.jobs.scanProtection!.role;
    const properties = jobsResources()[stacks.jobs.getLogicalId(role.node.defaultChild as never)].Properties;
    const statements = (properties.Policies as { PolicyDocument: { Statement: { Sid: string; Action: string | string[]; Resource: unknown; Condition?: unknown }[] } }[])
      .flatMap((policy) => policy.PolicyDocument.Statement);
    const bySid = Object.fromEntries(statements.map((statement) => [statement.Sid, statement]));
    expect(Object.keys(bySid).sort()).toEqual(
      [
        'AllowManagedRuleToSendS3EventsToGuardDuty',
        'AllowGuardDutyToMonitorEventBridgeManagedRule',
        'AllowPostScanTag',
        'AllowEnableS3EventBridgeEvents',
        'AllowPutValidationObject',
        'AllowCheckBucketOwnership',
        'AllowMalwareScan',
        'AllowDecryptForMalwareScan',
      ].sort(),
    );
    expect(JSON.stringify(bySid.AllowManagedRuleToSendS3EventsToGuardDuty!.Resource)).toContain(':rule/DO-NOT-DELETE-AmazonGuardDutyMalwareProtectionS3*');
    expect(bySid.AllowManagedRuleToSendS3EventsToGuardDuty!.Condition).toEqual({
      StringLike: { 'events:ManagedBy': 'malware-protection-plan.guardduty.amazonaws.com' },
    });
    expect(JSON.stringify(bySid.AllowPutValidationObject!.Resource)).toContain('/malware-protection-resource-validation-object');
    expect([bySid.AllowDecryptForMalwareScan!.Action].flat().sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
    for (const sid of ['AllowPostScanTag', 'AllowEnableS3EventBridgeEvents', 'AllowPutValidationObject', 'AllowCheckBucketOwnership', 'AllowMalwareScan']) {
      expect(mentionsScanBucket(bySid[sid]!.Resource), sid).toBe(true);
    }
    // Scanning never needs to delete or overwrite an object.
    expect(JSON.stringify(statements)).not.toContain('s3:DeleteObject');
  });

  it('sends GuardDuty scan results on the scan bucket to the jobs function, retried like the upload events', () => {
    const rules = t.jobs.findResources('AWS::Events::Rule', { Properties: { EventPattern: { source: ['aws.guardduty'] } } });
    expect(Object.keys(rules)).toHaveLength(1);
    const [ruleId, { Properties: rule }] = Object.entries(rules)[0]!;
    expect(rule.EventPattern['detail-type']).toEqual(['GuardDuty Malware Protection Object Scan Result']);
    expect(Object.keys(rule.EventPattern.detail)).toEqual(['s3ObjectDetails']);
    expect(rule.EventPattern.detail.s3ObjectDetails.bucketName).toHaveLength(1);
    expect(mentionsScanBucket(rule.EventPattern.detail.s3ObjectDetails.bucketName)).toBe(true);
    const jobsFunctionId = stacks.jobs.getLogicalId(stacks.jobs.jobs!.function.node.defaultChild as never);
    expect(rule.Targets).toEqual([
      expect.objectContaining({ Arn: { 'Fn::GetAtt': [jobsFunctionId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 4, MaximumEventAgeInSeconds: 6 * 60 * 60 } }),
    ]);
    t.jobs.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [jobsFunctionId, 'Arn'] },
      SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
    });
  });
});

describe('web', () => {
  it('serves a private bucket through Origin Access Control, with logging and SPA routing on the S3 behaviour only', () => {
    t.web.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const distribution = Object.values(t.web.findResources('AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
    const s3Origin = distribution.Origins.find((origin: { S3OriginConfig?: unknown }) => origin.S3OriginConfig);
    expect(s3Origin.OriginAccessControlId).toBeDefined();
    expect(distribution.Logging).toMatchObject({ Bucket: expect.anything() });
    expect(distribution.DefaultCacheBehavior.FunctionAssociations).toHaveLength(1);
    // No distribution-wide error rewrite: it would turn the API's own 403/404 JSON into index.html.
    expect(distribution.CustomErrorResponses).toBeUndefined();
    const patterns = distribution.CacheBehaviors.map((behavior: { PathPattern: string }) => behavior.PathPattern);
    expect(patterns).toEqual([...API_PATH_PATTERNS]);
    for (const behavior of distribution.CacheBehaviors) {
      expect(behavior.ViewerProtocolPolicy).toBe('https-only');
      expect(behavior.AllowedMethods).toContain('POST');
      expect(behavior.FunctionAssociations).toBeUndefined();
    }
    const apiOrigin = distribution.Origins.find((origin: { CustomOriginConfig?: unknown }) => origin.CustomOriginConfig);
    expect(apiOrigin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
  });

  it('sends HSTS, nosniff, DENY framing, a referrer policy and a CSP with frame-ancestors none', () => {
    const policy = Object.values(t.web.findResources('AWS::CloudFront::ResponseHeadersPolicy'))[0]!;
    const headers = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(headers).toMatchObject({
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63_072_000, IncludeSubdomains: true, Override: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
    });
    const csp = JSON.stringify(headers.ContentSecurityPolicy.ContentSecurityPolicy);
    for (const directive of ["frame-ancestors 'none'", "script-src 'self';", "object-src 'none'", 'connect-src', 'media-src']) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('routes the SPA function to index.html only for extension-less paths', () => {
    const fn = Object.values(t.web.findResources('AWS::CloudFront::Function'))[0]!;
    const code = fn.Properties.FunctionCode as string;
    const rewrite = new Function(`${code}; return handler;`)() as (event: { request: { uri: string } }) => { uri: string };
    expect(rewrite({ request: { uri: '/devices/01J0' } }).uri).toBe('/index.html');
    expect(rewrite({ request: { uri: '/' } }).uri).toBe('/index.html');
    expect(rewrite({ request: { uri: '/assets/index-5D0c6ucp.js' } }).uri).toBe('/assets/index-5D0c6ucp.js');
    expect(rewrite({ request: { uri: '/config.js' } }).uri).toBe('/config.js');
  });

  it('deploys the portal files, invalidating the entry files (version.json too: open tabs poll it)', () => {
    t.web.resourceCountIs('Custom::CDKBucketDeployment', 2);
    t.web.hasResourceProperties('Custom::CDKBucketDeployment', { DistributionPaths: ['/index.html', '/config.js', '/version.json'] });
  });
});

describe('cdk-nag', () => {
  it('leaves no unsuppressed AwsSolutions error or warning in any stack', () => {
    for (const stack of Object.values(stacks)) {
      const annotations = Annotations.fromStack(stack);
      const findings = [
        ...annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
        ...annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ].map((finding) => `${finding.id}: ${String(finding.entry.data).slice(0, 120)}`);
      expect(findings, stack.stackName).toEqual([]);
    }
  });

  it('gives every suppression a specific reason', () => {
    for (const template of Object.values(t)) {
      for (const resource of Object.values(template.toJSON().Resources as Record<string, { Metadata?: { cdk_nag?: { rules_to_suppress: { reason: string }[] } } }>)) {
        for (const rule of resource.Metadata?.cdk_nag?.rules_to_suppress ?? []) expect(rule.reason.length).toBeGreaterThan(40);
      }
    }
  });
});
