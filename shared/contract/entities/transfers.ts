import * as z from 'zod';
import { TransferFileFormat, TransferTargetType, TransferType } from '../../constants/account.ts';
import { TRANSFERABLE_PAYLOAD_TYPES, TransferablePayloadType } from '../../constants/payloads.ts';
import {
  IamRoleArn,
  PgpPublicKey,
  S3Destination,
  SftpRootDirectory,
  text,
  TransferConfigReference,
} from '../fields.ts';
import { Schedule } from '../schedule.ts';
import { itemsAtLeast, itemsBetween, lengthAtMost } from '../messages.ts';
import { Audited } from './common.ts';

export const S3TransferParams = z.strictObject({ destination: S3Destination, iam_role_arn: IamRoleArn });
export type S3TransferParams = z.infer<typeof S3TransferParams>;

export const SftpTransferParams = z.strictObject({
  server: text(1, 255),
  port: z.int().min(1).max(65535).default(22),
  root_directory: SftpRootDirectory,
  username: text(1, 255),
  /**
   * The server's host key as `ssh-keygen -l` prints it (`SHA256:` and 43 base64 characters). Deliveries refuse a
   * server whose key differs, and refuse to deliver while it is unset, naming the key the server showed (docs/decisions.md, Transfer delivery).
   */
  host_key_fingerprint: z
    .string()
    .max(50, { error: lengthAtMost(50) })
    .regex(/^SHA256:[A-Za-z0-9+/]{43}$/, { error: 'Must be the server host key fingerprint as ssh-keygen -l prints it: SHA256: then 43 characters' })
    .optional(),
});
export type SftpTransferParams = z.infer<typeof SftpTransferParams>;

/** Secrets are write-only: stored encrypted, never returned. */
export const TransferSecrets = z.strictObject({
  zip_password: text(1, 255).optional(),
  sftp_password: text(1, 255).optional(),
});

const configFields = {
  transfer_config_reference: TransferConfigReference.optional(),
  transfer_type: TransferType,
  payload_types: z
    .array(TransferablePayloadType)
    .min(1, { error: itemsAtLeast(1) })
    .max(TRANSFERABLE_PAYLOAD_TYPES.length, { error: itemsBetween(1, TRANSFERABLE_PAYLOAD_TYPES.length) }),
  schedule: Schedule.default(''),
  pgp_key: PgpPublicKey.optional(),
  transfer_file_format: TransferFileFormat.default('Zipped'),
  is_active: z.boolean().default(true),
  secured_data: TransferSecrets.optional(),
};

const TransferConfigByTarget = z.discriminatedUnion('target_type', [
  z.strictObject({ ...configFields, target_type: z.literal('S3'), params: S3TransferParams }),
  z.strictObject({ ...configFields, target_type: z.literal('SFTP'), params: SftpTransferParams }),
]);

/** The params fields only one target has: the spec's request names no target type, its params say which it is. */
const S3_ONLY_PARAMS = ['destination', 'iam_role_arn'];
const SFTP_ONLY_PARAMS = ['server', 'root_directory', 'username', 'port', 'host_key_fingerprint'];

/**
 * The target a request's params describe, when it names none: a client written from the spec sends `params` (S3:
 * destination and role ARN; SFTP: server, port, root directory, username) and no `target_type`. Params of both kinds,
 * or of neither, name no target, and the request is refused as missing one.
 */
function withTargetType(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || 'target_type' in value) return value;
  const params = (value as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return value;
  const has = (names: string[]) => names.some((name) => name in params);
  if (has(S3_ONLY_PARAMS) === has(SFTP_ONLY_PARAMS)) return value;
  return { ...value, target_type: has(S3_ONLY_PARAMS) ? 'S3' : 'SFTP' };
}

/**
 * Create or replace a transfer config. `target_type` picks the params form (S3: destination and role ARN;
 * SFTP: server, port, root directory, username); left out, the params' fields say which. The body may repeat the
 * path's `transfer_config_reference` (the spec's entity carries it); the router refuses it when it differs.
 */
export const TransferConfigRequest = z.preprocess(withTargetType, TransferConfigByTarget);
export type TransferConfigRequest = z.infer<typeof TransferConfigRequest>;

export const TransferConfig = Audited.extend({
  transfer_config_reference: TransferConfigReference,
  transfer_type: TransferType,
  target_type: TransferTargetType,
  payload_types: z.array(TransferablePayloadType),
  schedule: z.string().default(''),
  pgp_key: z.string().optional(),
  transfer_file_format: TransferFileFormat,
  params: z.record(z.string(), z.unknown()),
  is_active: z.boolean(),
  /** Which secrets are set (never their values). */
  has_zip_password: z.boolean().optional(),
  has_sftp_password: z.boolean().optional(),
  /**
   * S3 targets: the ExternalId Verity presents when it assumes `iam_role_arn`. The role's trust policy requires it
   * (`sts:ExternalId`), so no other tenant's configuration naming the same role can use it.
   */
  external_id: z.string().optional(),
});
export type TransferConfig = z.infer<typeof TransferConfig>;

export * from './transfer-runs.ts';
