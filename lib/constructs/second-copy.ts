import { Aws, Duration } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault, type IBackupVault } from 'aws-cdk-lib/aws-backup';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { AccountRootPrincipal, Effect, PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { CfnBucket, IBucket } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { BACKUP_RETENTION_DAYS, backupVaultName } from '../config/replica-names.ts';

/** A key policy that leaves access to IAM policies of the account (the CDK default for `Key`), for the L1 keys. */
export function keyPolicyOfAccount(): PolicyDocument {
  return new PolicyDocument({
    statements: [
      new PolicyStatement({
        sid: 'AccountIamPolicies',
        principals: [new AccountRootPrincipal()],
        actions: ['kms:*'],
        resources: ['*'],
      }),
    ],
  });
}

/** Where one payload bucket's replicas go. */
export interface ReplicaDestination {
  readonly bucketArn: string;
  readonly account: string;
  /** The second region's replica of the multi-Region key. */
  readonly keyArn: string;
}

/**
 * One rule replicating every object version to the second region: S3 Replication Time Control (99.99 % within 15
 * minutes, with metrics and events past the threshold), SSE-KMS objects re-encrypted with the replica key, replicas
 * owned by the destination bucket's owner. Delete markers are not replicated: a delete in the first region (retention's
 * disposal, or a mistake) must not reach the second copy; S3 never replicates version deletes, and the destination's
 * Object Lock keeps each version for its own retention (replicated with it).
 */
export function replicationRule(destination: ReplicaDestination): CfnBucket.ReplicationRuleProperty {
  return {
    id: 'second-copy',
    status: 'Enabled',
    priority: 1,
    filter: { prefix: '' },
    deleteMarkerReplication: { status: 'Disabled' },
    sourceSelectionCriteria: { sseKmsEncryptedObjects: { status: 'Enabled' } },
    destination: {
      bucket: destination.bucketArn,
      account: destination.account,
      accessControlTranslation: { owner: 'Destination' },
      encryptionConfiguration: { replicaKmsKeyId: destination.keyArn },
      replicationTime: { status: 'Enabled', time: { minutes: 15 } },
      metrics: { status: 'Enabled', eventThreshold: { minutes: 15 } },
    },
  };
}

/** Turns on replication of `bucket` to `destination` with `role` (set on the resource: one rule, the whole bucket). */
export function replicate(bucket: IBucket, role: Role, destination: ReplicaDestination): void {
  (bucket.node.defaultChild as CfnBucket).replicationConfiguration = { role: role.roleArn, rules: [replicationRule(destination)] };
}

export interface ReplicationRoleProps {
  /** Each source bucket with its destination. */
  readonly pairs: readonly { readonly source: IBucket; readonly destination: ReplicaDestination }[];
  /** The key the source objects are encrypted with. */
  readonly sourceKey: IKey;
}

/**
 * The role S3 replicates with, allowed no more than that: read the source buckets' versions with their retention and
 * legal holds, decrypt them through S3 only, write replicas (no deletes: delete markers are not replicated) and
 * encrypt them with the replica key through S3 in the second region only.
 */
export class ReplicationRole extends Construct {
  readonly role: Role;

  constructor(scope: Construct, id: string, props: ReplicationRoleProps) {
    super(scope, id);
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('s3.amazonaws.com'), description: 'S3 replication of the payload buckets to the second region' });
    const sources = props.pairs.map((pair) => pair.source);
    this.role.addToPolicy(new PolicyStatement({ actions: ['s3:GetReplicationConfiguration', 's3:ListBucket'], resources: sources.map((bucket) => bucket.bucketArn) }));
    this.role.addToPolicy(
      new PolicyStatement({
        actions: ['s3:GetObjectVersionForReplication', 's3:GetObjectVersionAcl', 's3:GetObjectVersionTagging', 's3:GetObjectRetention', 's3:GetObjectLegalHold'],
        resources: sources.map((bucket) => bucket.arnForObjects('*')),
      }),
    );
    this.role.addToPolicy(
      new PolicyStatement({
        actions: ['s3:ReplicateObject', 's3:ReplicateTags', 's3:ObjectOwnerOverrideToBucketOwner'],
        resources: props.pairs.map((pair) => `${pair.destination.bucketArn}/*`),
      }),
    );
    this.role.addToPolicy(
      new PolicyStatement({
        actions: ['kms:Decrypt'],
        resources: [props.sourceKey.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `s3.${Aws.REGION}.amazonaws.com` } },
      }),
    );
    const replicaKeys = [...new Set(props.pairs.map((pair) => pair.destination.keyArn))];
    this.role.addToPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['kms:Encrypt', 'kms:GenerateDataKey'],
        resources: replicaKeys,
      }),
    );
    NagSuppressions.addResourceSuppressions(
      this.role,
      [{ id: 'AwsSolutions-IAM5', reason: 'S3 replication reads and writes every object version of the named buckets: the object wildcard is the bucket, no wider.' }],
      true,
    );
  }
}

export interface TableBackupProps {
  readonly stage: string;
  readonly table: ITable;
  readonly encryptionKey: IKey;
  /** The second region's locked vault (lib/stacks/replica-stack.ts). */
  readonly copyVault: IBackupVault;
}

/**
 * AWS Backup of the table, next to its point-in-time recovery (35 days, same region): a daily backup kept
 * `BACKUP_RETENTION_DAYS.daily` and a monthly one kept `BACKUP_RETENTION_DAYS.monthly` (the longest record retention),
 * each copied to the second region's vault. The vault is locked in compliance mode: once the grace period has passed,
 * no one (root included) can delete a backup before its retention ends, shorten it, or remove the lock.
 */
export class TableBackup extends Construct {
  readonly vault: BackupVault;
  readonly plan: BackupPlan;

  constructor(scope: Construct, id: string, props: TableBackupProps) {
    super(scope, id);
    this.vault = new BackupVault(this, 'Vault', {
      backupVaultName: backupVaultName(props.stage),
      encryptionKey: props.encryptionKey,
      lockConfiguration: lockedVault(),
    });
    this.plan = new BackupPlan(this, 'Plan', { backupPlanName: `verity-${props.stage}-table`, backupVault: this.vault });
    for (const [name, schedule, days] of [
      ['daily', Schedule.cron({ hour: '2', minute: '30' }), BACKUP_RETENTION_DAYS.daily],
      ['monthly', Schedule.cron({ day: '1', hour: '2', minute: '30' }), BACKUP_RETENTION_DAYS.monthly],
    ] as const) {
      this.plan.addRule(
        new BackupPlanRule({
          ruleName: name,
          scheduleExpression: schedule,
          deleteAfter: Duration.days(days),
          copyActions: [{ destinationBackupVault: props.copyVault, deleteAfter: Duration.days(days) }],
        }),
      );
    }
    this.plan.addSelection('Table', { resources: [BackupResource.fromDynamoDbTable(props.table)], allowRestores: false });
    NagSuppressions.addResourceSuppressions(
      this.plan,
      [{ id: 'AwsSolutions-IAM4', reason: "AWS Backup's own managed policy for taking backups (AWSBackupServiceRolePolicyForBackup) is what its selection role needs; it moves with the service." }],
      true,
    );
  }
}

/**
 * Compliance mode: with `changeableFor` the lock can be removed only during those days after deployment (a mistake in the
 * first deploy can be fixed); afterwards it is immutable. `minRetention` is the shortest rule's retention, so every
 * backup the plan makes is accepted, and none can be kept for less.
 */
export function lockedVault(): { minRetention: Duration; changeableFor: Duration } {
  return { minRetention: Duration.days(BACKUP_RETENTION_DAYS.daily), changeableFor: Duration.days(3) };
}
