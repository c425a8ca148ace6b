import * as z from 'zod';
import { AlertSeverity } from '../../constants/alerts.ts';
import { DeviceReportableCommandState, InstallState, Service } from '../../constants/devices.ts';
import { Base64, Imei, KeyId, PayloadMetaEncrypted, PayloadReference, PhoneNumberLocal, Sha256Hex, text } from '../fields.ts';
import { itemsAtLeast } from '../messages.ts';
import { PayloadType } from '../../constants/payloads.ts';

/**
 * Device authentication request. `ulid_encrypted` is the device reference sealed with the tenant's enrolment key;
 * phone numbers and IMEIs identify the device user and the hardware. The device facts are optional.
 */
export const DeviceAuthRequest = z.strictObject({
  ulid_encrypted: Base64,
  phone_numbers: z.array(z.union([PhoneNumberLocal, z.string().min(1).max(255)])).min(1, { error: itemsAtLeast(1) }).max(8),
  imeis: z.array(Imei).min(1, { error: itemsAtLeast(1) }).max(8),
  installation_id: text(1, 255).optional(),
  model: text(1, 255).optional(),
  os_version: text(1, 64).optional(),
  app_version: text(1, 64).optional(),
  serial_number: text(1, 255).optional(),
  fcm_token: text(1, 4096).optional(),
});
export type DeviceAuthRequest = z.infer<typeof DeviceAuthRequest>;

export const DeviceAuthResponse = z.object({
  access_token: z.string(),
  /** Seconds until the access token expires (our addition, so the app knows when to re-authenticate). */
  expires_in: z.int().optional(),
  client_portal_url: z.string(),
  enabled_services: z.array(Service),
  account_reference: z.string(),
  install_state: InstallState,
});
export type DeviceAuthResponse = z.infer<typeof DeviceAuthResponse>;

/** A device reports what happened to a command. */
export const DeviceCommandReport = z.strictObject({
  state: DeviceReportableCommandState,
  message: text(0, 1000).optional(),
});
export type DeviceCommandReport = z.infer<typeof DeviceCommandReport>;

/** Sealed upload: a fresh DEK wrapped with the tenant KEK, its IV, the key id and the encrypted meta. */
export const SealedUpload = z.strictObject({
  encrypted_dek: Base64,
  iv: Base64,
  key_id: KeyId,
  meta: PayloadMetaEncrypted,
});
export type SealedUpload = z.infer<typeof SealedUpload>;

/** Payload registration after the ciphertext is uploaded; checksum is the SHA-256 of the plaintext. */
export const PayloadRegistration = SealedUpload.extend({
  payload_reference: PayloadReference,
  payload_type: PayloadType,
  checksum: Sha256Hex,
});
export type PayloadRegistration = z.infer<typeof PayloadRegistration>;

export const PayloadUploadUrlRequest = z.strictObject({
  payload_type: PayloadType,
  /**
   * Size in bytes of the body to upload (`ciphertext | tag`); the signed URL is bound to it: the PUT must send this
   * Content-Length, and storage refuses another. At most 5 GiB (one S3 PUT).
   */
  size: z.int().min(1).max(5 * 1024 ** 3),
  /**
   * SHA-256 (hex) of the body to upload: the sealed bytes, not the plaintext of the registration's `checksum`. The
   * signed URL is bound to it: the PUT must send `x-amz-checksum-sha256` (base64 of the same digest), and storage
   * refuses a body with another hash.
   */
  sha256: Sha256Hex,
});
export type PayloadUploadUrlRequest = z.infer<typeof PayloadUploadUrlRequest>;

export const PayloadUploadUrlResponse = z.object({
  upload_url: z.string(),
  payload_reference: z.string(),
  /** Headers the PUT must send besides its `Content-Length` (the declared size): the declared SHA-256, in S3's form. */
  upload_headers: z.record(z.string(), z.string()),
});
export type PayloadUploadUrlResponse = z.infer<typeof PayloadUploadUrlResponse>;

export const DeviceAlertRequest = z.strictObject({
  subject: text(1, 255),
  message: text(1, 4000),
  severity: AlertSeverity,
});
export type DeviceAlertRequest = z.infer<typeof DeviceAlertRequest>;

/** What the server says about a registered payload. */
export const PayloadRegistrationResponse = z.object({
  payload_reference: z.string(),
  state: z.enum(['pending', 'processed', 'failed', 'not_found']),
});
