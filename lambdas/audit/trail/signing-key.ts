import type { Config } from '../../core/config.ts';

/** The local key service's audit signing key (a key id it derives a key for; nothing to create). */
export const LOCAL_AUDIT_SIGNING_KEY_ID = 'local/audit-signing';

/**
 * The key that signs and verifies the audit trails' checkpoints: `AUDIT_SIGNING_KEY_ID` (the data stack's KMS
 * signing key in AWS), else on one machine the local key service's. In AWS without it, checkpoints cannot be signed:
 * that is a deployment fault, so it throws naming the variable.
 */
export function auditSigningKeyId(config: Pick<Config, 'AUDIT_SIGNING_KEY_ID' | 'VERITY_MODE'>): string {
  if (config.AUDIT_SIGNING_KEY_ID !== undefined) return config.AUDIT_SIGNING_KEY_ID;
  if (config.VERITY_MODE === 'local') return LOCAL_AUDIT_SIGNING_KEY_ID;
  throw new Error('Audit checkpoints cannot be signed: AUDIT_SIGNING_KEY_ID is missing');
}
