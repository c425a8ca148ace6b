import { AssumeRoleCommand, type STSClient } from '@aws-sdk/client-sts';
import { DeliveryError } from './types.ts';

/** Temporary credentials of an assumed role, in the shape the SDK's clients take. */
export interface RoleCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

/**
 * The ExternalId Verity presents when it assumes a tenant's delivery role: `verity-<client>`. The customer puts it in
 * the role's trust policy (condition `sts:ExternalId`), so a role written into another tenant's configuration does
 * not let that tenant deliver into this customer's bucket: the other tenant's runs present its own id.
 */
export function externalIdOf(client: string): string {
  return `verity-${client}`;
}

/** CloudTrail shows the session name: which tenant's transfer used the role (at most 64 of `[\w+=,.@-]`). */
export function roleSessionNameOf(client: string): string {
  return `verity-transfer-${client.replace(/[^\w+=,.@-]/g, '-')}`.slice(0, 64);
}

/** Renewed this long before they expire, so a part upload never starts with credentials about to lapse. */
const RENEW_BEFORE_MS = 5 * 60_000;

/**
 * Credentials of the customer's role, assumed with the tenant's ExternalId and renewed before they expire. A refusal
 * (the role does not exist or does not trust Verity with this ExternalId) will not mend on its own; throttling or a
 * fault of STS may.
 */
export function customerRoleCredentials(sts: STSClient, options: { client: string; roleArn: string; now?: () => number }): () => Promise<RoleCredentials> {
  const now = options.now ?? Date.now;
  let cached: RoleCredentials | undefined;
  return async () => {
    if (cached?.expiration && cached.expiration.getTime() - RENEW_BEFORE_MS > now()) return cached;
    let answer;
    try {
      answer = await sts.send(
        new AssumeRoleCommand({
          RoleArn: options.roleArn,
          RoleSessionName: roleSessionNameOf(options.client),
          ExternalId: externalIdOf(options.client),
          DurationSeconds: 3600,
        }),
      );
    } catch (error) {
      const failure = error as { name?: string; message?: string; $fault?: string; $metadata?: { httpStatusCode?: number } };
      const status = failure.$metadata?.httpStatusCode;
      const retryable = status === undefined || status >= 500 || status === 429 || failure.$fault === 'server' || failure.name === 'Throttling';
      throw new DeliveryError(
        retryable
          ? `Cannot assume ${options.roleArn} now: ${failure.message ?? String(error)}`
          : `params.iam_role_arn: ${options.roleArn} cannot be assumed (${failure.name ?? 'refused'}); its trust policy must allow Verity with sts:ExternalId ${externalIdOf(options.client)}`,
        { retryable, cause: error },
      );
    }
    const credentials = answer.Credentials;
    if (!credentials?.AccessKeyId || !credentials.SecretAccessKey) {
      throw new DeliveryError(`Assuming ${options.roleArn} returned no credentials`, { retryable: true });
    }
    cached = {
      accessKeyId: credentials.AccessKeyId,
      secretAccessKey: credentials.SecretAccessKey,
      sessionToken: credentials.SessionToken,
      expiration: credentials.Expiration,
    };
    return cached;
  };
}
