import type { TransferFileFormat, TransferTargetType, TransferType } from '#shared/constants/account.ts';
import type { TransferablePayloadType } from '#shared/constants/payloads.ts';
import { TransferConfigRequest, type TransferConfig } from '#shared/contract/entities/transfers.ts';
import { TransferConfigReference } from '#shared/contract/fields.ts';
import { fieldRequired, formatIssues, MESSAGES } from '#shared/contract/messages.ts';
import { nextRuns, ScheduleReadError } from '#shared/contract/schedule.ts';

/** The editor's values: text as typed, both targets' params kept while the user switches between them. */
export interface ConfigFormValues {
  reference: string;
  transferType: TransferType;
  targetType: TransferTargetType;
  destination: string;
  iamRoleArn: string;
  server: string;
  port: string;
  rootDirectory: string;
  username: string;
  /** The SFTP server's host key as `ssh-keygen -l` prints it; deliveries refuse a server showing another. */
  hostKeyFingerprint: string;
  payloadTypes: TransferablePayloadType[];
  format: TransferFileFormat;
  schedule: string;
  pgpKey: string;
  isActive: boolean;
  /** A new secret to store; empty keeps the stored one (secrets are write-only). */
  zipPassword: string;
  sftpPassword: string;
}

export const EMPTY_CONFIG_FORM: ConfigFormValues = {
  reference: '',
  transferType: 'Payload',
  targetType: 'SFTP',
  destination: 's3://',
  iamRoleArn: '',
  server: '',
  port: '22',
  rootDirectory: '/',
  username: '',
  hostKeyFingerprint: '',
  payloadTypes: [],
  format: 'Zipped',
  schedule: '',
  pgpKey: '',
  isActive: true,
  zipPassword: '',
  sftpPassword: '',
};

const textParam = (params: Record<string, unknown>, name: string, fallback: string) => {
  const value = params[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : fallback;
};

/** A saved configuration as editor values (its secrets stay on the server: the fields start empty). */
export function configFormValuesOf(config: TransferConfig): ConfigFormValues {
  const params = config.params;
  return {
    ...EMPTY_CONFIG_FORM,
    reference: config.transfer_config_reference,
    transferType: config.transfer_type,
    targetType: config.target_type,
    destination: textParam(params, 'destination', EMPTY_CONFIG_FORM.destination),
    iamRoleArn: textParam(params, 'iam_role_arn', ''),
    server: textParam(params, 'server', ''),
    port: textParam(params, 'port', EMPTY_CONFIG_FORM.port),
    rootDirectory: textParam(params, 'root_directory', EMPTY_CONFIG_FORM.rootDirectory),
    username: textParam(params, 'username', ''),
    hostKeyFingerprint: textParam(params, 'host_key_fingerprint', ''),
    payloadTypes: [...config.payload_types],
    format: config.transfer_file_format,
    schedule: config.schedule,
    pgpKey: config.pgp_key ?? '',
    isActive: config.is_active,
  };
}

/** Which wire path each field stands for: the server's `path: message` lines land under these fields. */
export const CONFIG_FIELD_PATHS = {
  reference: 'params.transfer_config_reference',
  transferType: 'body.transfer_type',
  targetType: 'body.target_type',
  destination: 'body.params.destination',
  iamRoleArn: 'body.params.iam_role_arn',
  server: 'body.params.server',
  port: 'body.params.port',
  rootDirectory: 'body.params.root_directory',
  username: 'body.params.username',
  hostKeyFingerprint: 'body.params.host_key_fingerprint',
  payloadTypes: 'body.payload_types',
  format: 'body.transfer_file_format',
  schedule: 'body.schedule',
  pgpKey: 'body.pgp_key',
  isActive: 'body.is_active',
  zipPassword: 'body.secured_data.zip_password',
  sftpPassword: 'body.secured_data.sftp_password',
} as const;

/** Which secrets the saved configuration holds (the editor says "set" or "not set" and never shows a value). */
export interface StoredSecrets {
  zipPassword: boolean;
  sftpPassword: boolean;
}

/** A port as typed: whole digits become a number for the contract to range-check, anything else stays text (refused). */
const portOf = (text: string): number | string => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : text);

/** The request body the values stand for (not yet checked). Only the chosen target's params and used secrets go. */
export function configRequestOf(values: ConfigFormValues): unknown {
  const zip = values.format === 'ZippedWithPassword' && values.zipPassword !== '' ? { zip_password: values.zipPassword } : {};
  const sftp = values.targetType === 'SFTP' && values.sftpPassword !== '' ? { sftp_password: values.sftpPassword } : {};
  const secured = { ...zip, ...sftp };
  return {
    target_type: values.targetType,
    transfer_type: values.transferType,
    payload_types: values.payloadTypes,
    schedule: values.schedule.trim(),
    ...(values.pgpKey.trim() === '' ? {} : { pgp_key: values.pgpKey.trim() }),
    transfer_file_format: values.format,
    is_active: values.isActive,
    params:
      values.targetType === 'S3'
        ? { destination: values.destination.trim(), iam_role_arn: values.iamRoleArn.trim() }
        : {
            server: values.server.trim(),
            port: portOf(values.port),
            root_directory: values.rootDirectory.trim(),
            username: values.username.trim(),
            ...(values.hostKeyFingerprint.trim() === '' ? {} : { host_key_fingerprint: values.hostKeyFingerprint.trim() }),
          },
    ...(Object.keys(secured).length === 0 ? {} : { secured_data: secured }),
  };
}

/** The secrets the save needs that are neither stored nor typed, worded as the server words them. */
function missingSecretLines(values: ConfigFormValues, stored: StoredSecrets): string[] {
  const lines: string[] = [];
  if (values.format === 'ZippedWithPassword' && values.zipPassword === '' && !stored.zipPassword) {
    lines.push(`${CONFIG_FIELD_PATHS.zipPassword}: ${fieldRequired('zip_password')}`);
  }
  if (values.targetType === 'SFTP' && values.sftpPassword === '' && !stored.sftpPassword) {
    lines.push(`${CONFIG_FIELD_PATHS.sftpPassword}: ${fieldRequired('sftp_password')}`);
  }
  return lines;
}

/** EventBridge's own rules for the schedule (stricter than the contract's shape check), with what is wrong. */
function scheduleLines(schedule: string, now: Date): string[] {
  try {
    nextRuns(schedule, 1, now);
    return [];
  } catch (error) {
    if (error instanceof ScheduleReadError) return [`${CONFIG_FIELD_PATHS.schedule}: ${error.message}`];
    throw error;
  }
}

/**
 * The request, checked with the contract's own schemas before it is sent, so the editor says what the server would
 * (same paths, same messages) without a round trip. The server adds what only it can check (the PGP key as the
 * packager reads it, host names, payload types the caller's roles may read) and its lines land on the same fields.
 */
export function checkConfigForm(
  values: ConfigFormValues,
  stored: StoredSecrets,
  now = new Date(),
): { ok: true; reference: string; body: TransferConfigRequest } | { ok: false; lines: string[] } {
  const reference = TransferConfigReference.safeParse(values.reference);
  const body = TransferConfigRequest.safeParse(configRequestOf(values));
  // The contract only says a schedule is not one EventBridge accepts; the schedule reader says why, so its reason
  // stands in for that line (the contract's other schedule lines, such as its length, stay).
  const scheduleReasons = scheduleLines(values.schedule.trim(), now);
  const notAccepted = `${CONFIG_FIELD_PATHS.schedule}: ${MESSAGES.cronOrRate}`;
  const contractLines = [
    ...(reference.success ? [] : formatIssues(reference.error, CONFIG_FIELD_PATHS.reference)),
    ...(body.success ? [] : formatIssues(body.error, 'body')),
  ];
  const lines = contractLines.filter((line) => scheduleReasons.length === 0 || line !== notAccepted);
  const bodyPaths = new Set(lines.map((line) => line.slice(0, line.indexOf(': '))));
  if (!bodyPaths.has(CONFIG_FIELD_PATHS.schedule)) lines.push(...scheduleReasons);
  lines.push(...missingSecretLines(values, stored));
  if (!reference.success || !body.success || lines.length > 0) return { ok: false, lines };
  return { ok: true, reference: reference.data, body: body.data };
}
