import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { BackupVault } from 'aws-cdk-lib/aws-backup';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { STACK_OUTPUTS } from '../config/stack-outputs.ts';
import type { StageConfig } from '../config/stage-config.ts';
import { copyVaultArn, replicaBucketArn, replicaBucketName, replicaKeyArn } from '../config/replica-names.ts';
import { PayloadBucket } from '../constructs/payload-bucket.ts';
import { ReplicationRole, replicate, TableBackup } from '../constructs/second-copy.ts';
import { ScanBucket } from '../constructs/scan-bucket.ts';
import { VerityTable } from '../constructs/verity-table.ts';
import { logBucket } from '../constructs/log-bucket.ts';

export interface DataStackProps extends StackProps {
  readonly config: StageConfig;
  /** The second region's copy (lib/stacks/replica-stack.ts); absent: the stage keeps no second copy. */
  readonly secondCopy?: SecondCopyTarget;
}

export interface SecondCopyTarget {
  readonly region: string;
  readonly account: string;
  /** The multi-Region key's id: its replica in `region` has the same one. */
  readonly keyId: string;
}

/**
 * What lives longest and holds the records: the key, the table, the payload buckets, the malware-scan quarantine
 * and their access logs.
 */
export class DataStack extends Stack {
  readonly key: Key;
  /** Signs the audit trails' checkpoints (ECDSA P-256): no writer of the table can sign a rewritten chain's head. */
  readonly auditSigningKey: Key;
  readonly table: Table;
  readonly rawBucket: Bucket;
  readonly processedBucket: Bucket;
  /** Short-lived plaintext copies GuardDuty scans (the jobs stack protects it and listens for the verdicts). */
  readonly scanBucket: Bucket;
  readonly accessLogsBucket: Bucket;
  /** HMAC key of pagination cursors (`last_key`), shared by every function. */
  readonly cursorSecret: Secret;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.key = new Key(this, 'DataKey', {
      alias: `alias/verity/${config.stage}/data`,
      description: `Verity ${config.stage}: table, payload buckets, secrets and platform key wrapping`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.table = new VerityTable(this, 'Records', { encryptionKey: this.key }).table;
    // Read by the provisioning commands (npm run tenant / staff) to write a new tenant's items.
    new CfnOutput(this, STACK_OUTPUTS.tableName.output, { value: this.table.tableName });

    // Asymmetric, so its private half never leaves KMS and anyone given the public key can check a checkpoint.
    // KMS does not rotate asymmetric keys; a new key means a new key id in the checkpoints signed after it.
    this.auditSigningKey = new Key(this, 'AuditSigningKey', {
      alias: `alias/verity/${config.stage}/audit-signing`,
      description: `Verity ${config.stage}: signs the audit trails' checkpoints`,
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.accessLogsBucket = logBucket(this, 'AccessLogs', { retentionDays: config.logRetentionDays, logsOf: "the payload buckets' server access" });

    this.rawBucket = new PayloadBucket(this, 'RawPayloads', {
      encryptionKey: this.key,
      accessLogsBucket: this.accessLogsBucket,
      objectLock: config.payloadObjectLock,
      eventBridge: true,
      // Legacy exports are uploaded from the portal's migrations screen to pre-signed links in this bucket.
      browserUploads: true,
    }).bucket;
    this.processedBucket = new PayloadBucket(this, 'ProcessedPayloads', {
      encryptionKey: this.key,
      accessLogsBucket: this.accessLogsBucket,
      objectLock: config.payloadObjectLock,
      browserReads: true,
    }).bucket;
    if (props.secondCopy !== undefined) this.keepSecondCopy(config, props.secondCopy);
    this.scanBucket = new ScanBucket(this, 'ScanQuarantine', { encryptionKey: this.key, accessLogsBucket: this.accessLogsBucket }).bucket;

    this.cursorSecret = new Secret(this, 'CursorSecret', {
      description: `Verity ${config.stage}: HMAC key of pagination cursors`,
      encryptionKey: this.key,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    NagSuppressions.addResourceSuppressions(this.cursorSecret, [
      {
        id: 'AwsSolutions-SMG4',
        reason: 'The key only signs short-lived pagination cursors: rotating it just invalidates open cursors, so it is rotated by redeploying, not by a rotation Lambda.',
      },
    ]);
  }

  /** Replicates both payload buckets to the second region and backs the table up there (docs/deploying.md, "Second copy"). */
  private keepSecondCopy(config: StageConfig, target: SecondCopyTarget): void {
    const keyArn = replicaKeyArn(this.partition, target.region, target.account, target.keyId);
    const pairs = (['raw', 'processed'] as const).map((kind) => ({
      source: kind === 'raw' ? this.rawBucket : this.processedBucket,
      destination: { bucketArn: replicaBucketArn(this.partition, replicaBucketName(config.stage, kind, target.account)), account: target.account, keyArn },
    }));
    const { role } = new ReplicationRole(this, 'Replication', { pairs, sourceKey: this.key });
    for (const pair of pairs) replicate(pair.source, role, pair.destination);
    new TableBackup(this, 'TableBackup', {
      stage: config.stage,
      table: this.table,
      encryptionKey: this.key,
      copyVault: BackupVault.fromBackupVaultArn(this, 'CopyVault', copyVaultArn(this.partition, target.region, target.account, config.stage)),
    });
  }
}
