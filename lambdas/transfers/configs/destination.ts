import type { TransferConfigItem } from '#core/store/entities/transfer-config.ts';

/** Where a configuration delivers: its target type and the params that name the address and who signs in there. */
type Destination = Pick<TransferConfigItem, 'target_type' | 'params'>;

/** The fields that say where recordings go: an SFTP server, port, user, directory and host key; an S3 location and role. */
const ADDRESS_FIELDS = ['server', 'port', 'username', 'root_directory', 'host_key_fingerprint', 'destination', 'iam_role_arn'] as const;

const addressOf = (config: Destination) =>
  JSON.stringify([config.target_type, ...ADDRESS_FIELDS.map((field) => (config.params as Record<string, unknown>)[field] ?? null)]);

/**
 * Is this write a new or changed destination (its sec alert: docs/decisions.md "Security alerts")? `created` for a new
 * configuration, `changed` when the address differs from the stored one, undefined when the address stays (a new
 * schedule, payload types or password to the same place are not a destination change).
 */
export function destinationChange(before: Destination | undefined, after: Destination): 'created' | 'changed' | undefined {
  if (before === undefined) return 'created';
  return addressOf(before) === addressOf(after) ? undefined : 'changed';
}

/** The destination in words for the alert: `sftp://user@host:22/dir (host key SHA256:…)` or `s3://bucket/prefix as role arn:…`. */
export function destinationWords(config: Destination): string {
  const params = config.params;
  if ('server' in params) {
    const key = params.host_key_fingerprint === undefined ? 'no host key set' : `host key ${params.host_key_fingerprint}`;
    return `sftp://${params.username}@${params.server}:${params.port}${params.root_directory} (${key})`;
  }
  return `${params.destination} as role ${params.iam_role_arn}`;
}
