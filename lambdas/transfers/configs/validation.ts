import type { AccessContext } from '#core/auth/access/access-context.ts';
import { parseScheduleExpression } from '#core/schedule-expression.ts';
import type { TransferConfigItem } from '#core/store/entities/transfer-config.ts';
import type { TransferConfigRequest } from '#shared/contract/entities/transfers.ts';
import { fieldRequired, MESSAGES } from '#shared/contract/messages.ts';
import { refusedAtSave } from '#core/egress/egress-check.ts';
import { literalAddress, PUBLIC_ADDRESS_MESSAGE } from '#core/egress/egress-policy.ts';
import { PackagingError } from '../packaging/errors.ts';

/*
 * What the contract's schemas cannot check on their own: the schedule as EventBridge Scheduler reads it, the PGP key
 * as the packager will encrypt to it, S3 and SFTP locations a delivery can safely use, which secrets the format and
 * target need, and whether the caller may export the payload types asked for. Each problem is one `path: message`
 * line, so a 400 lists them all at once.
 */

export const ZIP_PASSWORD_UNUSED = 'Only used with the ZippedWithPassword file format';
export const SFTP_PASSWORD_UNUSED = 'Only used with an SFTP target';
export const S3_BUCKET_MESSAGE = 'Must be s3://<bucket>/<optional prefix>, with a valid bucket name and no empty, "." or ".." parts';
export const SFTP_SERVER_MESSAGE = 'Must be a host name or an IP address';
export const SFTP_PATH_MESSAGE = 'Must not contain "." or ".." parts or control characters';
export const NO_CONTROL_CHARACTERS = 'Must not contain control characters';
export const payloadTypeRefused = (type: string) => `Your roles may not read ${type} payloads`;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const BUCKET = /^(?!xn--)(?!.*\.\.)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const HOST_NAME = /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6 = /^[0-9A-Fa-f:.]{2,45}$/;

const badSegments = (segments: readonly string[]) => segments.some((segment) => segment === '.' || segment === '..');

function s3DestinationLines(destination: string): string[] {
  const [bucket = '', ...prefix] = destination.slice('s3://'.length).split('/');
  // A trailing slash is allowed (`s3://bucket/prefix/`); any other empty part is not.
  const parts = prefix.at(-1) === '' ? prefix.slice(0, -1) : prefix;
  // S3 refuses bucket names written as an IP address; one must never become a host a request is sent to.
  const ok = BUCKET.test(bucket) && literalAddress(bucket) === undefined && !parts.includes('') && !badSegments(parts) && !CONTROL.test(destination);
  return ok ? [] : [`body.params.destination: ${S3_BUCKET_MESSAGE}`];
}

function sftpLines(params: { server: string; root_directory: string; username: string }): string[] {
  const lines: string[] = [];
  const server = params.server.trim();
  if (server !== params.server || !(HOST_NAME.test(server) || IPV4.test(server) || (server.includes(':') && IPV6.test(server)))) {
    lines.push(`body.params.server: ${SFTP_SERVER_MESSAGE}`);
  }
  if (CONTROL.test(params.root_directory) || badSegments(params.root_directory.split('/'))) {
    lines.push(`body.params.root_directory: ${SFTP_PATH_MESSAGE}`);
  }
  if (CONTROL.test(params.username)) lines.push(`body.params.username: ${NO_CONTROL_CHARACTERS}`);
  return lines;
}

/** Which secrets the request needs, may give, and gives: given now, or already stored (an update may keep them). */
function secretLines(request: TransferConfigRequest, existing: TransferConfigItem | undefined): string[] {
  const lines: string[] = [];
  const given = request.secured_data ?? {};
  const zipNeeded = request.transfer_file_format === 'ZippedWithPassword';
  if (given.zip_password !== undefined && !zipNeeded) lines.push(`body.secured_data.zip_password: ${ZIP_PASSWORD_UNUSED}`);
  if (zipNeeded && given.zip_password === undefined && existing?.sealed_zip_password === undefined) {
    lines.push(`body.secured_data.zip_password: ${fieldRequired('zip_password')}`);
  }
  const sftp = request.target_type === 'SFTP';
  if (given.sftp_password !== undefined && !sftp) lines.push(`body.secured_data.sftp_password: ${SFTP_PASSWORD_UNUSED}`);
  if (sftp && given.sftp_password === undefined && existing?.sealed_sftp_password === undefined) {
    lines.push(`body.secured_data.sftp_password: ${fieldRequired('sftp_password')}`);
  }
  return lines;
}

async function pgpLines(pgpKey: string | undefined, now: Date): Promise<string[]> {
  if (pgpKey === undefined) return [];
  // Loaded only when a key is saved: openpgp is most of the transfers API's bundle, and evaluating it at module init
  // would slow every cold start of the API for the few requests that carry a key (docs/decisions.md, "Lambda bundles").
  const { parsePgpPublicKey } = await import('../packaging/pgp-key.ts');
  try {
    await parsePgpPublicKey(pgpKey, 'body.pgp_key', now);
    return [];
  } catch (error) {
    if (error instanceof PackagingError) return [...error.lines];
    throw error;
  }
}

/**
 * Every problem of a create or replace, as `path: message` lines (an SFTP server is resolved: egress policy) (empty when it may be saved). `existing` is the
 * stored configuration an update replaces (its secrets may be kept); `access` is the caller's, whose payload types
 * must cover the ones the configuration exports.
 */
export async function configProblems(
  request: TransferConfigRequest,
  existing: TransferConfigItem | undefined,
  access: Pick<AccessContext, 'payloadTypes'> | undefined,
  now: Date,
): Promise<string[]> {
  const lines: string[] = [];
  if (request.schedule !== '') {
    try {
      parseScheduleExpression(request.schedule);
    } catch {
      lines.push(`body.schedule: ${MESSAGES.cronOrRate}`);
    }
  }
  lines.push(...(await pgpLines(request.pgp_key, now)));
  lines.push(...(request.target_type === 'S3' ? s3DestinationLines(request.params.destination) : sftpLines(request.params)));
  // The egress policy (docs/decisions.md "Egress"): a well-formed server must not resolve to a non-public address.
  if (request.target_type === 'SFTP' && !lines.some((line) => line.startsWith('body.params.server:'))) {
    if (await refusedAtSave(request.params.server, request.params.port)) lines.push(`body.params.server: ${PUBLIC_ADDRESS_MESSAGE}`);
  }
  lines.push(...secretLines(request, existing));
  if (access !== undefined) {
    request.payload_types.forEach((type, index) => {
      if (!access.payloadTypes.includes(type)) lines.push(`body.payload_types.${index}: ${payloadTypeRefused(type)}`);
    });
  }
  return lines;
}
