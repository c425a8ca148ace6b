import { ulid } from 'ulid';
import type { z } from 'zod';
import type {
  PayloadRegistration,
  PayloadRegistrationResponse as PayloadRegistrationResponseSchema,
  PayloadUploadUrlRequest,
  PayloadUploadUrlResponse,
} from '#shared/contract/entities/device-auth.ts';
import type { Dependencies } from '../../core/dependencies.ts';
import { unwrapDek } from '../../device-crypto/public.ts';
import { utcOf } from '../../device-data/public.ts';
import { ConflictError, UnauthorizedError, ValidationError } from '../../core/errors.ts';
import { ConditionFailedError, type TableItem } from '../../core/ports/table-store.ts';
import { keys, payloadObjectKey } from '../../core/store/keys.ts';
import { readDeviceHolder } from '../../core/store/entities/device.ts';
import { payloadToItem, readPayload, type PayloadItem } from '../../core/store/entities/payload.ts';
import { payloadDueMarkerItems } from '../../account-data/public.ts';
import { IV_BYTES, openSealedMeta } from '../../device-crypto/public.ts';
import { sweepMarker } from './sweep-marker.ts';

type PayloadRegistrationResponse = z.infer<typeof PayloadRegistrationResponseSchema>;

/** What registration uses. */
export type RegistrationDependencies = Pick<Dependencies, 'table' | 'keys' | 'clock' | 'blobs' | 'jobs' | 'logger'>;

/** The calling device, as its verified token names it. */
export interface PayloadDevice {
  client: string;
  deviceReference: string;
}

/** Upload links live this long: enough for a slow mobile PUT to start, short enough not to be a standing credential. */
export const UPLOAD_URL_SECONDS = 15 * 60;
/** An upload more than this long after the recording is late (spec: 7 days). */
export const LATE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A pre-signed PUT to the raw bucket for a new payload reference (the server names it, so it is a fresh ULID), bound
 * to the declared size and SHA-256: storage refuses any other body, so one link cannot carry more than was declared.
 */
export async function createUploadUrl(
  deps: Pick<Dependencies, 'blobs'>,
  device: PayloadDevice,
  request: PayloadUploadUrlRequest,
): Promise<PayloadUploadUrlResponse> {
  const payloadReference = ulid();
  // The contract's hex digest; S3 takes the raw digest in base64.
  const checksumSha256 = Buffer.from(request.sha256, 'hex').toString('base64');
  const uploadUrl = await deps.blobs.presignPut('raw', payloadObjectKey(device.client, payloadReference), {
    expiresInSeconds: UPLOAD_URL_SECONDS,
    contentLength: request.size,
    checksumSha256,
  });
  return { upload_url: uploadUrl, payload_reference: payloadReference, upload_headers: { 'x-amz-checksum-sha256': checksumSha256 } };
}

/** The device's answer for a stored state. */
export function registrationStateOf(state: unknown): PayloadRegistrationResponse['state'] {
  if (state === 'Failed' || state === 'Quarantined') return 'failed';
  if (state === 'Recorded' || state === 'Uploaded' || state === 'Scanning' || state === 'NotRecorded') return 'pending';
  return 'processed';
}

/** True when an upload at `uploadedAt` comes more than 7 days after the recording at `payloadTime` (both ISO). */
export function isLate(payloadTime: string, uploadedAt: string): boolean {
  return Date.parse(uploadedAt) - Date.parse(payloadTime) > LATE_AFTER_MS;
}

/**
 * The recording's time from the sealed meta, read at registration because the list keys sort by it. Meta that does
 * not open, or has no valid payload_time, is still registered (at the registration time): the processing then marks
 * it Failed with an alert, so a broken recording is visible rather than refused and lost on the phone.
 */
function payloadTimeOf(dek: Buffer, sealedMeta: string, now: string): string {
  try {
    const meta = openSealedMeta(dek, sealedMeta) as { payload_time?: unknown } | null;
    const time = typeof meta?.payload_time === 'string' ? utcOf(meta.payload_time) : undefined;
    return time ?? now;
  } catch {
    return now;
  }
}

/**
 * Registers an uploaded (or about to be uploaded) payload: Recorded when its object is not in the raw bucket yet,
 * Uploaded when it is. Idempotent on payload_reference: the same device registering the same payload again gets the
 * current state; another device, or other content, is a 409. A key_id or wrapped DEK that does not open is a 400
 * (nothing could ever decrypt it).
 */
export async function registerPayload(
  deps: RegistrationDependencies,
  device: PayloadDevice,
  body: PayloadRegistration,
): Promise<PayloadRegistrationResponse> {
  const { client, deviceReference } = device;
  const key = keys.payload.key(client, body.payload_reference);
  const existing = await deps.table.get(key, { consistent: true });
  if (existing !== undefined) return sameRegistration(existing, device, body);

  const dek = await unwrapDek(deps, client, body.key_id, body.encrypted_dek);
  if (Buffer.from(body.iv, 'base64').length !== IV_BYTES) throw new ValidationError([`body.iv: Must be ${IV_BYTES} bytes`]);

  const holderItem = await deps.table.get(keys.device.key(client, deviceReference), { consistent: true });
  if (holderItem === undefined) throw new UnauthorizedError('Device token required');
  const holder = readDeviceHolder(holderItem);

  const now = deps.clock.now().toISOString();
  const payloadTime = payloadTimeOf(dek, body.meta, now);
  const object = await deps.blobs.head('raw', payloadObjectKey(client, body.payload_reference));
  const uploadedAt = object === undefined ? undefined : (object.lastModified?.toISOString() ?? now);

  const payload: PayloadItem & { payload_time: string } = {
    client,
    payload_reference: body.payload_reference,
    payload_type: body.payload_type,
    payload_state: uploadedAt === undefined ? 'Recorded' : 'Uploaded',
    payload_time: payloadTime,
    device_reference: deviceReference,
    ...(holder.device_user_reference === undefined ? {} : { device_user_reference: holder.device_user_reference }),
    ...(holder.group === undefined ? {} : { group: holder.group }),
    key_id: body.key_id,
    encrypted_dek: body.encrypted_dek,
    content_iv: body.iv,
    sealed_meta: body.meta,
    checksum: body.checksum.toLowerCase(),
    is_legacy: false,
    is_late: uploadedAt !== undefined && isLate(payloadTime, uploadedAt),
    ...(uploadedAt === undefined ? {} : { uploaded_at: uploadedAt }),
    created_at: now,
    updated_at: now,
    updated_by: `device:${deviceReference}`,
  };
  try {
    // With its sweep marker, so a payload whose object or processing never comes is found again (sweep.ts). A plain
    // put: an object that arrived first may have left a marker already.
    await deps.table.transactWrite([
      { kind: 'put', item: payloadToItem(client, payload), condition: { kind: 'item-not-exists' } },
      { kind: 'put', item: sweepMarker(client, body.payload_reference, deps.clock.now()) },
      // Its retention marker by payload_time (lambdas/account-data/retention/due-index.ts).
      ...payloadDueMarkerItems(client, payload, ['payload_time']).map((marker) => ({ kind: 'put' as const, item: marker })),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    // A concurrent registration of the same reference won: answer as a repeat of it.
    const winner = await deps.table.get(key, { consistent: true });
    if (winner === undefined) throw error;
    return sameRegistration(winner, device, body);
  }
  if (uploadedAt !== undefined) await startProcessing(deps, client, body.payload_reference);
  return { payload_reference: body.payload_reference, state: registrationStateOf(payload.payload_state) };
}

/**
 * The object came first (the device uploads, then registers): its event already ran and found no registration, and
 * its retry would come a minute or more later. Processing starts now instead. A start that fails is only logged: the
 * registration stands, and the event's retry or the sweep still processes the payload.
 */
async function startProcessing(deps: Pick<Dependencies, 'jobs' | 'logger'>, client: string, payloadReference: string): Promise<void> {
  try {
    await deps.jobs.start('payload-processing', { client, payload_reference: payloadReference });
  } catch (error) {
    deps.logger.warn('payload processing not started; the retry or the sweep will run it', {
      client,
      payload_reference: payloadReference,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** A repeated registration: the same device and the same sealed content get the current state; anything else is 409. */
function sameRegistration(item: TableItem, device: PayloadDevice, body: PayloadRegistration): PayloadRegistrationResponse {
  const existing = readPayload(item);
  const same =
    existing.device_reference === device.deviceReference &&
    existing.checksum === body.checksum.toLowerCase() &&
    existing.encrypted_dek === body.encrypted_dek &&
    existing.payload_type === body.payload_type;
  if (!same) throw new ConflictError('payload_reference: Already registered with other content');
  return { payload_reference: body.payload_reference, state: registrationStateOf(existing.payload_state) };
}

/** GET /device/v1/payloads/{ref}: the state of one of the calling device's payloads; another device's is not_found. */
export async function payloadStateFor(
  deps: Pick<Dependencies, 'table'>,
  device: PayloadDevice,
  payloadReference: string,
): Promise<PayloadRegistrationResponse> {
  const item = await deps.table.get(keys.payload.key(device.client, payloadReference), { consistent: true });
  const payload = item === undefined ? undefined : readPayload(item);
  if (payload === undefined || payload.device_reference !== device.deviceReference) return { payload_reference: payloadReference, state: 'not_found' };
  return { payload_reference: payloadReference, state: registrationStateOf(payload.payload_state) };
}
