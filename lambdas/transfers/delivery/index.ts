/**
 * Transfer delivery: what the transfer job calls to put packaged files on a customer's SFTP server or into their S3
 * bucket. Each file goes under a temporary name and becomes visible only whole; nothing already delivered is
 * replaced; every file's bytes are counted and hashed as they are sent.
 */
import type { STSClient } from '@aws-sdk/client-sts';
import { customerBucketClient, stsClientOf } from '#core/adapters/wiring/customer-bucket.ts';
import { STAND_IN_CREDENTIALS } from '#core/adapters/wiring/stand-in-credentials.ts';
import type { Config } from '#core/config.ts';
import type { Logger } from '#core/logger.ts';
import type { TransferConfigItem } from '#core/store/entities/transfer-config.ts';
import { S3TransferParams, SftpTransferParams } from '#shared/contract/entities/transfers.ts';
import { checkEgress, PUBLIC_ADDRESS_MESSAGE, type EgressCheck } from '#core/egress/egress-policy.ts';
import { egressCheckOf } from '#core/egress/egress-check.ts';
import { customerRoleCredentials } from './customer-role.ts';
import { createS3Destination } from './s3-destination.ts';
import { openSftpDestination, SFTP_UNREACHABLE_MESSAGE } from './sftp-destination.ts';
import { DeliveryError, type Destination } from './types.ts';

export { DeliveryError, type DeliveredFile, type Destination } from './types.ts';

export interface DeliveryDependencies {
  config: Config;
  logger: Logger;
  /** The egress check (default: the process's, from EGRESS_ALLOW). */
  egress?: EgressCheck;
  /** STS, for assuming the customer's role (AWS mode); the process's own (its adapter's) when not given. */
  sts?: STSClient;
}

/**
 * Opens the configuration's target for one run. SFTP: connects and logs in now (a wrong password or host key fails
 * here, not on the first file). S3: in AWS mode assumes the customer's role (`iam_role_arn`, ExternalId
 * `verity-<client>`); in local mode the local S3 is the customer's bucket, reached with the stand-in credentials.
 */
export async function openDestination(
  deps: DeliveryDependencies,
  config: TransferConfigItem,
  secrets: { sftpPassword?: string },
): Promise<Destination> {
  if (config.target_type === 'SFTP') {
    const params = SftpTransferParams.safeParse(config.params);
    if (!params.success) throw new DeliveryError('params: not the parameters of an SFTP target', { retryable: false });
    if (secrets.sftpPassword === undefined) throw new DeliveryError('secured_data.sftp_password: not set', { retryable: false });
    // Checked again now (DNS may have changed since the save) and connected to the very address checked, so a name
    // rebound between the check and the connection cannot reach a private address (docs/decisions.md "Egress").
    const verdict = await checkEgress(params.data.server, params.data.port, deps.egress ?? egressCheckOf(deps.config.EGRESS_ALLOW));
    if (!verdict.allowed) {
      deps.logger.debug('SFTP server refused by the egress policy', { reason: verdict.reason });
      // A name that does not resolve (yet) may come to; an address that is not public will not.
      if (verdict.unresolved === true) throw new DeliveryError(SFTP_UNREACHABLE_MESSAGE, { retryable: true });
      throw new DeliveryError(`params.server: ${PUBLIC_ADDRESS_MESSAGE}`, { retryable: false });
    }
    return openSftpDestination({
      host: verdict.address,
      name: params.data.server,
      onConnectionDetail: (detail) => deps.logger.debug('SFTP connection failed', { detail }),
      port: params.data.port,
      username: params.data.username,
      password: secrets.sftpPassword,
      hostKeyFingerprint: params.data.host_key_fingerprint,
      rootDirectory: params.data.root_directory,
    });
  }
  const params = S3TransferParams.safeParse(config.params);
  if (!params.success) throw new DeliveryError('params: not the parameters of an S3 target', { retryable: false });
  const { config: env } = deps;
  const local = env.VERITY_MODE === 'local';
  const credentials = local
    ? STAND_IN_CREDENTIALS
    : customerRoleCredentials(deps.sts ?? stsClientOf(env), {
        client: config.client,
        roleArn: params.data.iam_role_arn,
      });
  // A role that cannot be assumed fails the opening, not the first file.
  if (typeof credentials === 'function') await credentials();
  const s3 = customerBucketClient(env, credentials);
  return createS3Destination(s3, { destination: params.data.destination, partChecksums: env.S3_ENDPOINT === undefined });
}
