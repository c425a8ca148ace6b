import { Annotations, ArnFormat, Duration, Stack, type StackProps, TimeZone } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Schedule, ScheduleExpression, ScheduleGroup, ScheduleTargetInput } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import type { ScheduleDefinition } from '#core/ports/scheduler.ts';
import { checkSchedules } from '../config/job-schedules.ts';
import type { StageConfig } from '../config/stage-config.ts';
import { BucketMalwareProtection, SCAN_RESULT_EVENT } from '../constructs/bucket-malware-protection.ts';
import { resourcePattern } from '../constructs/nag.ts';
import { VerityFunction } from '../constructs/verity-function.ts';
import { bindPlatform, type PlatformResources } from './platform-bindings.ts';

export interface JobsStackProps extends StackProps {
  readonly config: StageConfig;
  readonly platform: PlatformResources;
  /** `lambdas/jobs/handler.ts`, or undefined while it is not written: then no function and no schedules. */
  readonly jobsEntry: string | undefined;
  /** `lambdas/transfer-jobs/handler.ts`, or undefined while it is not written: then no transfer jobs function. */
  readonly transferJobsEntry: string | undefined;
  readonly schedules: readonly ScheduleDefinition[];
}

/**
 * Scheduled and event jobs: one jobs function dispatching on `job`, the platform schedules (from
 * lib/config/job-schedules.ts), a group for the tenants' transfer schedules created at run time, the role
 * EventBridge Scheduler assumes, the raw-bucket upload event that starts payload processing, and the malware scan
 * of processing's plaintext: GuardDuty Malware Protection on the scan bucket and its scan-result event, which
 * resumes the processing. The `transfer` job runs in a function of its own, the transfer jobs function, so its
 * packaging and delivery (openpgp, ssh2, zip.js) stay out of the jobs function's cold start; the tenants' transfer
 * schedules invoke it.
 */
export class JobsStack extends Stack {
  readonly schedulerRole: Role;
  /** Where the api's transfers function creates tenant schedules. */
  readonly transferSchedules: ScheduleGroup;
  readonly jobs: VerityFunction | undefined;
  /** Runs the `transfer` job (lambdas/transfer-jobs); the tenants' transfer schedules target it. */
  readonly transferJobs: VerityFunction | undefined;
  /** GuardDuty Malware Protection on the scan bucket; absent with the jobs function (nothing writes there then). */
  readonly scanProtection: BucketMalwareProtection | undefined;

  constructor(scope: Construct, id: string, props: JobsStackProps) {
    super(scope, id, props);
    const { config } = props;
    checkSchedules(props.schedules);

    this.schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': this.account } } }),
      description: `EventBridge Scheduler invoking the Verity ${config.stage} job functions`,
    });
    const platformGroup = new ScheduleGroup(this, 'PlatformSchedules', { scheduleGroupName: `verity-${config.stage}-platform` });
    this.transferSchedules = new ScheduleGroup(this, 'TransferSchedules', { scheduleGroupName: `verity-${config.stage}-transfers` });
    this.transferJobs = props.transferJobsEntry === undefined ? undefined : this.transferJobsFunction(props, props.transferJobsEntry);
    if (this.transferJobs === undefined) {
      Annotations.of(this).addWarningV2(
        'verity:transfer-jobs-handler-missing',
        'lambdas/transfer-jobs/handler.ts does not exist: no transfer jobs function is deployed, and transfers are not scheduled.',
      );
    }

    if (props.jobsEntry === undefined) {
      this.jobs = undefined;
      this.scanProtection = undefined;
      Annotations.of(this).addWarningV2(
        'verity:jobs-handler-missing',
        'lambdas/jobs/handler.ts does not exist: no jobs function, no schedules, no upload processing and no malware scanning are deployed.',
      );
      return;
    }

    const jobsFunctionName = `verity-${config.stage}-jobs`;
    const jobs = new VerityFunction(this, 'Jobs', {
      functionName: jobsFunctionName,
      entry: props.jobsEntry,
      description: `Verity ${config.stage} jobs`,
      logRetention: config.logRetentionDays,
      // Processing decrypts and hashes whole recordings as a stream: more memory is more CPU and network.
      memorySize: 1024,
      timeout: Duration.minutes(5),
    });
    bindPlatform(jobs, props.platform, { raw: 'retain', processed: 'retain' });
    // Only processing uses the plaintext quarantine (no API function gets SCAN_BUCKET).
    jobs.bindBucket(props.platform.scanBucket, 'SCAN_BUCKET', 'quarantine');
    // The audit-sequencer job signs checkpoints; verifying them is the audit:verify script's (an operator's) work. The
    // activity-export job signs an export's manifest and puts the key's public half in the file.
    props.platform.auditSigningKey.grant(jobs.role, 'kms:Sign', 'kms:GetPublicKey');
    jobs.setEnv('AUDIT_SIGNING_KEY_ID', props.platform.auditSigningKey.keyArn);
    this.jobs = jobs;
    // Long jobs (imports, retention, hold and lock walks) hand over to a fresh invocation of this function before
    // their time runs out: it may start itself (and no transfer: it runs none).
    this.startsItself(jobs, jobsFunctionName, 'JOBS_FUNCTION_NAME');
    // The job-sweep resumes a transfer whose invocation died (lambdas/jobs/job-sweep.ts): it starts the transfer job
    // on the transfer jobs function, named by its fixed name as the function's own hand-overs name it.
    if (this.transferJobs !== undefined) this.mayStart(jobs, `verity-${config.stage}-transfer-jobs`, 'TRANSFER_JOBS_FUNCTION_NAME');

    // New activity records (table stream inserts of UserActivity/DeviceActivity only) run the audit sequencer for
    // their tenants, in batches of up to 100 gathered for up to a second. A tenant's records share one partition
    // key, so its stream records stay in one shard, handed to one invocation at a time in order; the sequencer's
    // conditional head update keeps the chain unforked even when runs overlap (a retry, the schedule). A failed
    // batch is retried, and the audit-sequencer schedule links whatever is left.
    jobs.function.addEventSource(
      new DynamoEventSource(props.platform.table, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        retryAttempts: 10,
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: { NewImage: { entity: { S: FilterRule.or('UserActivity', 'DeviceActivity') } } },
          }),
        ],
      }),
    );
    NagSuppressions.addResourceSuppressions(
      jobs.role,
      [{ id: 'AwsSolutions-IAM5', reason: 'Reading a table stream needs dynamodb:ListStreams, which has no resource-level permission (Resource "*").', appliesTo: ['Resource::*'] }],
      true,
    );
    // Both event rules: EventBridge retries a failed invoke, and processing is idempotent.
    const jobsTarget = () => new LambdaFunction(jobs.function, { retryAttempts: 4, maxEventAge: Duration.hours(6) });

    for (const definition of props.schedules) {
      new Schedule(this, `Schedule-${definition.name}`, {
        scheduleName: definition.name,
        scheduleGroup: platformGroup,
        description: `Verity ${config.stage}: ${definition.target.job}`,
        schedule: ScheduleExpression.expression(
          definition.expression,
          definition.timezone === undefined ? undefined : TimeZone.of(definition.timezone),
        ),
        target: new LambdaInvoke(jobs.function, {
          role: this.schedulerRole,
          input: ScheduleTargetInput.fromObject(definition.target),
          retryAttempts: 2,
          maxEventAge: Duration.hours(1),
        }),
      });
    }

    // After the schedules: the grant they add creates the policy this suppression must reach.
    NagSuppressions.addResourceSuppressions(
      this.schedulerRole,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'The scheduler may invoke the jobs function and its versions/aliases (`<arn>:*`), nothing else.',
          appliesTo: [{ regex: resourcePattern(jobs.function, ':\\*') }],
        },
      ],
      true,
    );

    // Object-created events arrive through EventBridge (enabled on the raw bucket): no bucket-notification
    // custom resource, and no dependency from the data stack back onto this one.
    new Rule(this, 'RawPayloadUploaded', {
      description: 'A device uploaded a payload: scan, decrypt-verify, index',
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created'],
        detail: { bucket: { name: [props.platform.rawBucket.bucketName] } },
      },
      targets: [jobsTarget()],
    });

    // Processing writes a payload's plaintext to the scan bucket (the raw object is ciphertext GuardDuty cannot
    // judge); GuardDuty tags the copy with its verdict and announces it, which brings processing back to read the tag.
    this.scanProtection = new BucketMalwareProtection(this, 'ScanProtection', { bucket: props.platform.scanBucket });
    new Rule(this, 'PayloadCopyScanned', {
      description: 'GuardDuty scanned a plaintext payload copy: read the verdict, delete the copy, finish processing',
      eventPattern: {
        source: [SCAN_RESULT_EVENT.source],
        detailType: [SCAN_RESULT_EVENT.detailType],
        detail: { s3ObjectDetails: { bucketName: [props.platform.scanBucket.bucketName] } },
      },
      targets: [jobsTarget()],
    });
  }

  /**
   * The transfer jobs function: the `transfer` job only (lambdas/transfer-jobs/handler.ts), with what that job needs:
   * the table, reads of both payload buckets (a device's sealed raw object, a migrated recording's processed copy),
   * the platform key (DEKs, the configuration's sealed secrets), a customer's delivery role, and itself for its
   * hand-overs. The tenants' transfer schedules, made at run time in the transfers group, invoke it as the scheduler
   * role.
   */
  private transferJobsFunction(props: JobsStackProps, entry: string): VerityFunction {
    const { config } = props;
    const functionName = `verity-${config.stage}-transfer-jobs`;
    const transferJobs = new VerityFunction(this, 'TransferJobs', {
      functionName,
      entry,
      description: `Verity ${config.stage} transfer jobs`,
      logRetention: config.logRetentionDays,
      // Each file is decrypted, hashed, packaged (zip, PGP) and uploaded as a stream: more memory is more CPU and network.
      memorySize: 1024,
      // The job hands over to a fresh invocation after 4 minutes (LONG_JOB_BUDGET_SECONDS, lambdas/jobs/running-jobs.ts).
      timeout: Duration.minutes(5),
    });
    bindPlatform(transferJobs, props.platform, { raw: 'read', processed: 'read' });
    // A production delivered as a download is stored under the processed bucket's productions/ prefix (nothing else).
    transferJobs.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [props.platform.processedBucket.arnForObjects('productions/*')] }));
    props.platform.processedBucket.encryptionKey?.grant(transferJobs.role, 'kms:GenerateDataKey');
    NagSuppressions.addResourceSuppressions(
      transferJobs.role,
      [{ id: 'AwsSolutions-IAM5', reason: 'PutObject on the productions delivered as downloads only (productions/<tenant>/<reference>/<file>).', appliesTo: [{ regex: '/^Resource::.*ProcessedPayloadsBucket.*\\/productions\\/\\*$/' }] }],
      true,
    );
    // A transfer out of budget hands its lease to a fresh invocation of this function (run now and re-run start it from
    // the transfers API function).
    this.startsItself(transferJobs, functionName, 'TRANSFER_JOBS_FUNCTION_NAME');
    // Transfer delivery into a customer's bucket assumes the role the customer made for Verity: in their account,
    // under a name they chose, so any role; each trusts Verity only with its tenant's ExternalId (docs/decisions.md,
    // "Transfer delivery"), which the delivery module derives from the tenant (`verity-<client>`) and no configuration
    // can change. The conditions hold even if that code were wrong: never a role in Verity's own account (one trusting
    // the account without an ExternalId would otherwise be a tenant's for the naming), and never without a Verity id.
    transferJobs.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['sts:AssumeRole'],
        resources: [`arn:${this.partition}:iam::*:role/*`],
        conditions: {
          StringNotEquals: { 'aws:ResourceAccount': this.account },
          StringLike: { 'sts:ExternalId': 'verity-*' },
        },
      }),
    );
    NagSuppressions.addResourceSuppressions(
      transferJobs.role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: "Transfers assume each customer's delivery role, in the customer's account under the customer's name: any role outside Verity's account (aws:ResourceAccount), presenting a Verity ExternalId; the role's trust policy (ExternalId per tenant) is the guard.",
          appliesTo: ['Resource::arn:<AWS::Partition>:iam::*:role/*', 'Resource::arn:aws:iam::*:role/*'],
        },
      ],
      true,
    );
    // The tenants' transfer schedules are made at run time (the transfers API function, bindScheduler) with this
    // function as their target: the scheduler role may invoke it.
    transferJobs.function.grantInvoke(this.schedulerRole);
    NagSuppressions.addResourceSuppressions(
      this.schedulerRole,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'The scheduler may invoke the transfer jobs function and its versions/aliases (`<arn>:*`), nothing else.',
          appliesTo: [{ regex: resourcePattern(transferJobs.function, ':\\*') }],
        },
      ],
      true,
    );
    return transferJobs;
  }

  /**
   * A job function that hands long work over to a fresh invocation of itself before its time runs out may invoke
   * itself, named by its fixed name (its generated one would be circular), given to it in `variable`.
   */
  private startsItself(fn: VerityFunction, functionName: string, variable: 'JOBS_FUNCTION_NAME' | 'TRANSFER_JOBS_FUNCTION_NAME'): void {
    this.mayStart(fn, functionName, variable);
  }

  /** `fn` may start jobs on the job function of this fixed name (asynchronous invoke), given to it in `variable`. */
  private mayStart(fn: VerityFunction, functionName: string, variable: 'JOBS_FUNCTION_NAME' | 'TRANSFER_JOBS_FUNCTION_NAME'): void {
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [this.formatArn({ service: 'lambda', resource: 'function', resourceName: functionName, arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
      }),
    );
    fn.setEnv(variable, functionName);
  }
}
