import * as z from 'zod';
import { ClientId, PayloadReference } from '#shared/contract/fields.ts';
import { objectKeyOfQuarantineKey, payloadObjectKey } from '../../core/store/keys.ts';
import { processPayload, type ProcessingDependencies, type ProcessingOutcome } from './processing.ts';
import { markUnregisteredObject } from './sweep-marker.ts';

/** EventBridge `Object Created` from the raw bucket (AWS). */
const BusObjectCreated = z.looseObject({
  source: z.literal('aws.s3'),
  'detail-type': z.literal('Object Created'),
  detail: z.looseObject({ bucket: z.looseObject({ name: z.string() }), object: z.looseObject({ key: z.string() }) }),
});

/** An S3 notification (s3rver locally; S3 → Lambda direct): keys are URL-encoded, `+` for space. */
const S3Notification = z.looseObject({
  Records: z.array(
    z.looseObject({
      eventName: z.string().optional(),
      s3: z.looseObject({ bucket: z.looseObject({ name: z.string() }), object: z.looseObject({ key: z.string() }) }),
    }),
  ),
});

/** GuardDuty finished scanning an object of the quarantine bucket (AWS: the scanner's copy of a payload's plaintext). */
const ScanResult = z.looseObject({
  source: z.literal('aws.guardduty'),
  'detail-type': z.literal('GuardDuty Malware Protection Object Scan Result'),
  detail: z.looseObject({ s3ObjectDetails: z.looseObject({ bucketName: z.string(), objectKey: z.string() }) }),
});

/**
 * Payload object keys whose quarantine copy GuardDuty has scanned, or undefined when the event is not a scan result.
 * Processing runs again for them: this time the scanner finds the verdict on the copy.
 */
export function scannedObjectsOf(event: unknown, scanBucket: string | undefined): string[] | undefined {
  const result = ScanResult.safeParse(event);
  if (!result.success) return undefined;
  const { bucketName, objectKey } = result.data.detail.s3ObjectDetails;
  const payloadKey = bucketName === scanBucket ? objectKeyOfQuarantineKey(objectKey) : undefined;
  return payloadKey === undefined ? [] : [payloadKey];
}

/** Raw-bucket object keys named in an event (decoded), or undefined when the event is not an object-created one. */
export function createdObjectsOf(event: unknown, rawBucket: string): string[] | undefined {
  const bus = BusObjectCreated.safeParse(event);
  if (bus.success) return bus.data.detail.bucket.name === rawBucket ? [bus.data.detail.object.key] : [];
  const notification = S3Notification.safeParse(event);
  if (!notification.success) return undefined;
  return notification.data.Records.filter(
    (record) => record.s3.bucket.name === rawBucket && (record.eventName === undefined || record.eventName.startsWith('ObjectCreated')),
  ).map((record) => decodeURIComponent(record.s3.object.key.replace(/\+/g, ' ')));
}

/** Tenant and payload of a raw object key (`<client>/payloads/<ref>`), or undefined for any other key. */
export function payloadOfObjectKey(objectKey: string): { client: string; payloadReference: string } | undefined {
  const match = /^([^/]+)\/payloads\/([^/]+)$/.exec(objectKey);
  if (match === null) return undefined;
  const client = match[1] as string;
  let payloadReference: string;
  try {
    payloadReference = decodeURIComponent(match[2] as string);
  } catch {
    return undefined;
  }
  if (!ClientId.safeParse(client).success || !PayloadReference.safeParse(payloadReference).success) return undefined;
  // Only the canonical spelling: a key that merely decodes to a payload is not one the upload URL names.
  return payloadObjectKey(client, payloadReference) === objectKey ? { client, payloadReference } : undefined;
}

/** Thrown when an object arrived before its registration: the event's invoker retries it (Lambda async retries). */
export class NotRegisteredYetError extends Error {
  override readonly name = 'NotRegisteredYetError';
}

/**
 * Processes each payload object an event names: created in the raw bucket, or its quarantine copy scanned by
 * GuardDuty. Keys that are not payload objects are skipped. An object whose payload is not registered yet gets a sweep
 * marker and throws NotRegisteredYetError after the others are done, so the event is retried (and swept if it never
 * registers).
 */
export async function processBlobEvent(
  deps: ProcessingDependencies & { config: { RAW_BUCKET: string; SCAN_BUCKET?: string | undefined } },
  event: unknown,
): Promise<Record<string, ProcessingOutcome | 'skipped'> | undefined> {
  const objects = createdObjectsOf(event, deps.config.RAW_BUCKET) ?? scannedObjectsOf(event, deps.config.SCAN_BUCKET);
  if (objects === undefined) return undefined;
  const outcomes: Record<string, ProcessingOutcome | 'skipped'> = {};
  for (const objectKey of objects) {
    const payload = payloadOfObjectKey(objectKey);
    outcomes[objectKey] = payload === undefined ? 'skipped' : await processPayload(deps, payload.client, payload.payloadReference);
  }
  const waiting = Object.entries(outcomes).filter(([, outcome]) => outcome === 'not-registered');
  // If the registration never comes, the retries run out and the event is gone: the sweep's marker remembers it.
  for (const [objectKey] of waiting) {
    const payload = payloadOfObjectKey(objectKey);
    if (payload !== undefined) await markUnregisteredObject(deps, payload.client, payload.payloadReference);
  }
  if (waiting.length > 0) throw new NotRegisteredYetError(`Not registered yet: ${waiting.map(([objectKey]) => objectKey).join(', ')}`);
  return outcomes;
}
