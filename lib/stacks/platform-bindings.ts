import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { BucketAccess, VerityFunction } from '../constructs/verity-function.ts';

/** The issuer and accepted audiences (app client ids) of one user pool. */
export interface OidcTrust {
  readonly issuer: string;
  readonly audiences: readonly string[];
}

/**
 * The shared resources Verity functions are configured with (lambdas/core/config.ts reads these variables).
 * `bindPlatform` binds all but `scanBucket` to every function.
 */
export interface PlatformResources {
  readonly table: ITable;
  readonly rawBucket: IBucket;
  readonly processedBucket: IBucket;
  /** The malware-scan quarantine: bound (`SCAN_BUCKET`) to the jobs function only, never by `bindPlatform`. */
  readonly scanBucket: IBucket;
  readonly key: IKey;
  /** Signs the audit trails' checkpoints: bound (`AUDIT_SIGNING_KEY_ID`) to the jobs function only. */
  readonly auditSigningKey: IKey;
  readonly cursorSecret: ISecret;
  readonly tenants: OidcTrust;
  readonly staff: OidcTrust;
  /** The Object Lock mode of processed recordings (`OBJECT_LOCK_MODE`), from the stage's `payloadRetentionMode`. */
  readonly objectLockMode: 'COMPLIANCE' | 'GOVERNANCE';
}

/**
 * Binds what lambdas/core/config.ts requires of every process. Bucket access differs per function, but every
 * function gets both bucket names because the shared config requires them.
 */
export function bindPlatform(
  fn: VerityFunction,
  resources: PlatformResources,
  access: { readonly raw: BucketAccess; readonly processed: BucketAccess },
): VerityFunction {
  return fn
    .setEnv('VERITY_MODE', 'aws')
    .setEnv('OBJECT_LOCK_MODE', resources.objectLockMode)
    .bindTable(resources.table)
    .bindBucket(resources.rawBucket, 'RAW_BUCKET', access.raw)
    .bindBucket(resources.processedBucket, 'PROCESSED_BUCKET', access.processed)
    .bindKey(resources.key, 'KMS_KEY_ID')
    .bindSecretValue(resources.cursorSecret, 'CURSOR_SECRET')
    .setEnv('OIDC_ISSUER', resources.tenants.issuer)
    .setEnv('OIDC_AUDIENCES', resources.tenants.audiences.join(','))
    .setEnv('STAFF_OIDC_ISSUER', resources.staff.issuer)
    .setEnv('STAFF_OIDC_AUDIENCES', resources.staff.audiences.join(','));
}
