import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { BackupVault } from 'aws-cdk-lib/aws-backup';
import { CfnReplicaKey, Key } from 'aws-cdk-lib/aws-kms';
import { Bucket, ObjectLockRetention } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { copyVaultName, type PayloadKind, replicaBucketName } from '../config/replica-names.ts';
import type { StageConfig } from '../config/stage-config.ts';
import { privateDataBucketProps } from '../constructs/private-bucket.ts';
import { keyPolicyOfAccount, lockedVault } from '../constructs/second-copy.ts';
import { logBucket } from '../constructs/log-bucket.ts';

export interface ReplicaStackProps extends StackProps {
  readonly config: StageConfig;
  /** The stage's account: the buckets and vault are named from it, so the data stack can address them. */
  readonly account: string;
  /** The multi-Region key's primary (lib/stacks/replication-key-stack.ts), in the stage's own region. */
  readonly primaryKeyArn: string;
}

/**
 * The second copy, in the second region: the payload buckets' replicas, under the same Object Lock as their sources,
 * encrypted with the replica of the multi-Region key, and the locked vault receiving the table backups' copies.
 * Deployed before the data stack, whose replication rules and copy action name what it holds.
 */
export class ReplicaStack extends Stack {
  readonly key: CfnReplicaKey;
  readonly buckets: Readonly<Record<PayloadKind, Bucket>>;
  readonly copyVault: BackupVault;

  constructor(scope: Construct, id: string, props: ReplicaStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.key = new CfnReplicaKey(this, 'ReplicaDataKey', {
      primaryKeyArn: props.primaryKeyArn,
      description: `Verity ${config.stage}: the second copy of recordings and table backups (replica)`,
      keyPolicy: keyPolicyOfAccount(),
    });
    this.key.applyRemovalPolicy(RemovalPolicy.RETAIN);
    const key = Key.fromKeyArn(this, 'ReplicaKey', this.key.attrArn);

    const accessLogs = logBucket(this, 'AccessLogs', { retentionDays: config.logRetentionDays, logsOf: "the copy buckets' server access" });

    const lock = config.payloadObjectLock;
    const replica = (kind: PayloadKind) =>
      new Bucket(this, kind === 'raw' ? 'RawPayloadsCopy' : 'ProcessedPayloadsCopy', {
        bucketName: replicaBucketName(config.stage, kind, props.account),
        // Replication needs versioning on both sides; Object Lock keeps each replica for the retention it came with.
        versioned: true,
        objectLockEnabled: true,
        // The same bucket-wide default as the source (lib/stacks/data-stack.ts): a replica never has less protection.
        objectLockDefaultRetention:
          lock === undefined
            ? undefined
            : lock.mode === 'COMPLIANCE'
              ? ObjectLockRetention.compliance(Duration.days(lock.days))
              : ObjectLockRetention.governance(Duration.days(lock.days)),
        ...privateDataBucketProps({ encryptionKey: key, accessLogsBucket: accessLogs, logPrefix: `${kind}-copy` }),
      });
    this.buckets = { raw: replica('raw'), processed: replica('processed') };

    this.copyVault = new BackupVault(this, 'CopyVault', {
      backupVaultName: copyVaultName(config.stage),
      encryptionKey: key,
      lockConfiguration: lockedVault(),
    });
    // CDK's cross-region reference reader (the primary key's ARN) is its own Lambda-backed custom resource.
    NagSuppressions.addStackSuppressions(this, [
      { id: 'AwsSolutions-IAM4', reason: "CDK's cross-region reference reader uses AWSLambdaBasicExecutionRole for its own logs; the role is not configurable." },
      { id: 'AwsSolutions-L1', reason: "CDK's cross-region reference reader runtime is chosen by aws-cdk-lib and moves with its upgrades." },
      { id: 'AwsSolutions-IAM5', reason: "CDK's cross-region reference reader reads the SSM parameters of this stage's exports under /cdk/exports/." },
    ]);
  }
}
