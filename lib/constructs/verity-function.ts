import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IRole, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, type IFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { LAMBDA_BUNDLING } from './lambda-bundling.ts';
import { resourcePattern } from './nag.ts';
import { REPO_ROOT } from './paths.ts';

/** Variables the Lambda runtime sets itself; setting them is refused by Lambda or silently confusing. */
const RESERVED_ENV = new Set([
  '_HANDLER',
  '_X_AMZN_TRACE_ID',
  'AWS_ACCESS_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_DEFAULT_REGION',
  'AWS_EXECUTION_ENV',
  'AWS_LAMBDA_FUNCTION_MEMORY_SIZE',
  'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_LAMBDA_FUNCTION_VERSION',
  'AWS_LAMBDA_INITIALIZATION_TYPE',
  'AWS_LAMBDA_LOG_GROUP_NAME',
  'AWS_LAMBDA_LOG_STREAM_NAME',
  'AWS_LAMBDA_RUNTIME_API',
  'AWS_REGION',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'LAMBDA_RUNTIME_DIR',
  'LAMBDA_TASK_ROOT',
]);

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

export interface VerityFunctionProps {
  /** Absolute path of the handler module; it must export `handler`. */
  readonly entry: string;
  readonly description: string;
  /** Days to keep the function's logs. */
  readonly logRetention: RetentionDays;
  /** @default 512 — ARM64 at 512 MB keeps cold starts of a bundled SDK client short. */
  readonly memorySize?: number;
  /** @default 10 seconds — below API Gateway's 30 s so the API answers with our error, not a gateway timeout. */
  readonly timeout?: Duration;
  /** Variables every caller needs (e.g. `VERITY_MODE`); reserved names are refused. */
  readonly environment?: Record<string, string>;
}

/**
 * What a function may do with a bound bucket. `name` only tells it the bucket name (the config requires it);
 * `retain` is `readWrite` plus setting Object Lock retention and legal holds (never bypassing governance);
 * `quarantine` is the malware-scan round trip on a scan bucket: write a copy, read its scan tag, delete it (never
 * read the copy back).
 */
export type BucketAccess = 'name' | 'read' | 'put' | 'readWrite' | 'retain' | 'quarantine';

const OBJECT_LOCK_ACTIONS = ['s3:GetObjectRetention', 's3:PutObjectRetention', 's3:GetObjectLegalHold', 's3:PutObjectLegalHold'];

const QUARANTINE_OBJECT_ACTIONS = ['s3:PutObject', 's3:GetObjectTagging', 's3:DeleteObject'];

/** cdk-nag `appliesTo`: the action families CDK's bucket grants put a `*` on (`s3:GetObject*`, `s3:List*`, …). */
const S3_GRANT_ACTIONS = '/^Action::s3:(GetObject|GetBucket|List|DeleteObject|Abort|PutObject(Legal|Retention|Tagging|VersionTagging)?)\\*?$/';
/** cdk-nag `appliesTo`: the same for KMS grants (`kms:GenerateDataKey*`, `kms:ReEncrypt*`). */
const KMS_GRANT_ACTIONS = '/^Action::kms:(ReEncrypt|GenerateDataKey)\\*$/';

/**
 * A Verity Lambda function: ARM64, `nodejs22.x`, bundled locally by esbuild (never Docker) as minified ESM
 * with source maps, X-Ray tracing, its own log group with a retention, and a role that can write only to that
 * log group (no AWS managed policy).
 *
 * `bind*` methods grant access AND set the variable naming the resource, so code and permissions cannot drift.
 */
export class VerityFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  private readonly env = new Map<string, string>();

  constructor(scope: Construct, id: string, props: VerityFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention });
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.description}`,
    });
    // Only this function's own log group: the managed AWSLambdaBasicExecutionRole allows every log group.
    this.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [this.logGroup.logGroupArn] }),
    );

    this.function = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup: this.logGroup,
      role: this.role,
      projectRoot: REPO_ROOT,
      depsLockFilePath: `${REPO_ROOT}/package-lock.json`,
      awsSdkConnectionReuse: false, // SDK v3 reuses connections itself; the v2 variable is noise.
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        target: LAMBDA_BUNDLING.target,
        mainFields: [...LAMBDA_BUNDLING.mainFields],
        banner: LAMBDA_BUNDLING.banner,
        minify: LAMBDA_BUNDLING.minify,
        externalModules: [...LAMBDA_BUNDLING.external],
        sourceMap: LAMBDA_BUNDLING.sourceMap,
        sourceMapMode: SourceMapMode.EXTERNAL,
        sourcesContent: LAMBDA_BUNDLING.sourcesContent,
        // Bundle (and tree-shake) the SDK v3 clients rather than rely on the runtime's copy: smaller cold start,
        // and the version we tested is the version that runs.
        bundleAwsSDK: true,
        tsconfig: `${REPO_ROOT}/tsconfig.json`,
      },
    });
    if (LAMBDA_BUNDLING.enableSourceMaps) this.setEnv('NODE_OPTIONS', '--enable-source-maps');
    for (const [name, value] of Object.entries(props.environment ?? {})) this.setEnv(name, value);

    NagSuppressions.addResourceSuppressions(this.function, [
      {
        id: 'AwsSolutions-L1',
        reason: 'Verity targets nodejs22.x deliberately (the runtime the code and its tests are built for, LTS until 2027-04); moving to nodejs24.x is a planned upgrade, not a drift.',
      },
    ]);
    // X-Ray's PutTraceSegments/PutTelemetryRecords support no resource-level permission: `*` is the only form.
    NagSuppressions.addResourceSuppressions(
      this.role,
      [{ id: 'AwsSolutions-IAM5', reason: 'X-Ray tracing actions have no resource-level permissions; AWS requires Resource "*".', appliesTo: ['Resource::*'] }],
      true,
    );
  }

  /**
   * Sets an environment variable. Refuses reserved names, malformed names and a second, different value for
   * the same name (two binds fighting over one variable is a wiring bug).
   */
  setEnv(name: string, value: string): this {
    if (RESERVED_ENV.has(name)) throw new Error(`${this.node.path}: environment variable "${name}" is reserved by Lambda`);
    if (!ENV_NAME.test(name)) throw new Error(`${this.node.path}: environment variable "${name}" must be UPPER_SNAKE_CASE`);
    const existing = this.env.get(name);
    if (existing !== undefined && existing !== value) {
      throw new Error(`${this.node.path}: environment variable "${name}" is already set to another value`);
    }
    if (existing === undefined) {
      this.env.set(name, value);
      this.function.addEnvironment(name, value);
    }
    return this;
  }

  /** Read/write items of the table (and use its KMS key); sets `TABLE_NAME`. */
  bindTable(table: ITable, access: 'read' | 'readWrite' = 'readWrite'): this {
    if (access === 'read') table.grantReadData(this.role);
    else table.grantReadWriteData(this.role);
    this.suppressGrantWildcards('the DynamoDB table and its indexes', [
      { regex: resourcePattern(table, '\\/index\\/\\*') },
      { regex: KMS_GRANT_ACTIONS },
    ]);
    return this.setEnv('TABLE_NAME', table.tableName);
  }

  /** Access to a bucket's objects (and its KMS key); sets `envName` to the bucket name. */
  bindBucket(bucket: IBucket, envName: string, access: BucketAccess): this {
    if (access === 'read') bucket.grantRead(this.role);
    if (access === 'put') bucket.grantPut(this.role);
    if (access === 'readWrite' || access === 'retain') bucket.grantReadWrite(this.role);
    if (access === 'retain') {
      this.role.addToPrincipalPolicy(new PolicyStatement({ actions: OBJECT_LOCK_ACTIONS, resources: [bucket.arnForObjects('*')] }));
    }
    if (access === 'quarantine') this.grantQuarantine(bucket);
    if (access !== 'name') {
      this.suppressGrantWildcards(`objects of the ${envName} bucket`, [
        // Quarantine access names its actions one by one: only the object keys and the KMS grant carry a `*`.
        ...(access === 'quarantine' ? [] : [{ regex: S3_GRANT_ACTIONS }]),
        { regex: resourcePattern(bucket, '\\/\\*') },
        { regex: KMS_GRANT_ACTIONS },
      ]);
    }
    return this.setEnv(envName, bucket.bucketName);
  }

  /** Encrypt, decrypt and generate data keys with a KMS key; sets `envName` to its ARN. */
  bindKey(key: IKey, envName: string): this {
    key.grantEncryptDecrypt(this.role); // includes kms:GenerateDataKey* for envelope encryption
    this.suppressGrantWildcards('the platform key', [{ regex: KMS_GRANT_ACTIONS }]);
    return this.setEnv(envName, key.keyArn);
  }

  /**
   * Puts a Secrets Manager secret's value in `envName` as a CloudFormation dynamic reference: the template
   * and cdk.out hold only `{{resolve:secretsmanager:…}}`; CloudFormation resolves it at deploy time.
   */
  bindSecretValue(secret: ISecret, envName: string): this {
    return this.setEnv(envName, secret.secretValue.unsafeUnwrap());
  }

  /**
   * Lets the function create, replace and delete schedules in `group` that invoke `target` as `role`;
   * sets SCHEDULE_GROUP, SCHEDULER_TARGET_ARN and SCHEDULER_ROLE_ARN (lambdas/core/config.ts).
   */
  bindScheduler(group: IScheduleGroup, role: IRole, target: IFunction): this {
    group.grantReadSchedules(this.role);
    group.grantWriteSchedules(this.role);
    group.grantDeleteSchedules(this.role);
    role.grantPassRole(this.role);
    this.suppressGrantWildcards(`schedules of the ${group.node.id} group`, [{ regex: '/^Resource::arn:<AWS::Partition>:scheduler:.+\\/\\*$/' }]);
    this.setEnv('SCHEDULE_GROUP', group.scheduleGroupName);
    this.setEnv('SCHEDULER_TARGET_ARN', target.functionArn);
    return this.setEnv('SCHEDULER_ROLE_ARN', role.roleArn);
  }

  /**
   * May start jobs on the jobs function (`JOBS_FUNCTION_NAME`, asynchronous invoke): the device API starts the
   * processing of a payload whose object arrived before its registration.
   */
  bindJobRunner(target: IFunction): this {
    target.grantInvoke(this.role);
    // The grant covers the function's versions and aliases (`<arn>:*`); the ARN comes from the jobs stack's output.
    this.suppressGrantWildcards('versions of the jobs function', [{ regex: '/^Resource::.+JobsFunction.+:\\*$/' }]);
    return this.setEnv('JOBS_FUNCTION_NAME', target.functionName);
  }

  /**
   * Write a copy, read its scan tag, delete it; encrypt the copy with the bucket's key (`GenerateDataKey*`, and
   * `Decrypt`, which S3 needs to complete a multipart upload). `s3:ListBucket` on the bucket itself (no object
   * access) because without it S3 answers the tag read of a copy not written yet with 403, not 404, and the
   * scanner (lambdas/core/adapters/aws/guardduty-scanner.ts) tells "no copy yet" from a failure by that 404.
   */
  private grantQuarantine(bucket: IBucket): void {
    this.role.addToPrincipalPolicy(new PolicyStatement({ actions: QUARANTINE_OBJECT_ACTIONS, resources: [bucket.arnForObjects('*')] }));
    this.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
    bucket.encryptionKey?.grant(this.role, 'kms:GenerateDataKey*', 'kms:Decrypt');
  }

  private suppressGrantWildcards(what: string, appliesTo: { regex: string }[]): void {
    NagSuppressions.addResourceSuppressions(
      this.role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: `Grant on ${what}: wildcards are limited to the object keys / index names / action families of that one resource, as CDK's grant methods scope them.`,
          appliesTo,
        },
      ],
      true,
    );
  }
}
