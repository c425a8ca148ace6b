/**
 * Names of what the second region holds, derived from the stage and account alone: the data stack's replication rules
 * and backup copy action address the replica stack's buckets and vault by these, without a cross-region lookup at
 * deploy time (lib/stacks/replica-stack.ts).
 */
export type PayloadKind = 'raw' | 'processed';

/** Globally unique: one per stage and account (at most 7 + 16 + 16 + 12 = 51 characters). */
export function replicaBucketName(stage: string, kind: PayloadKind, account: string): string {
  return `verity-${stage}-${kind}-copy-${account}`;
}

/** The locked vault in the stage's own region that holds the table's backups. */
export function backupVaultName(stage: string): string {
  return `verity-${stage}-backups`;
}

/** The locked vault in the second region that receives the backups' copies. */
export function copyVaultName(stage: string): string {
  return `verity-${stage}-backup-copies`;
}

export function replicaBucketArn(partition: string, bucketName: string): string {
  return `arn:${partition}:s3:::${bucketName}`;
}

export function copyVaultArn(partition: string, region: string, account: string, stage: string): string {
  return `arn:${partition}:backup:${region}:${account}:backup-vault:${copyVaultName(stage)}`;
}

/** A multi-Region key's replica keeps the primary's key id: only the region in its ARN differs. */
export function replicaKeyArn(partition: string, region: string, account: string, keyId: string): string {
  return `arn:${partition}:kms:${region}:${account}:key/${keyId}`;
}

/**
 * How long the table's backups are kept: the daily ones long enough to restore a recent mistake, the monthly ones as
 * long as the longest-kept records (the activity trail's 8 years, docs/decisions.md "Retention defaults").
 */
export const BACKUP_RETENTION_DAYS = { daily: 35, monthly: 2923 } as const;
