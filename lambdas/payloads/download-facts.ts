import type { Readable } from 'node:stream';
import type { Dependencies } from '#core/dependencies.ts';
import { readDeviceUser } from '#core/store/entities/device-user.ts';
import type { PayloadItem } from '#core/store/entities/payload.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { downloadFileName } from './download-name.ts';
import { MEDIA_SIGNATURE_BYTES, mediaTypeOf } from './media-type.ts';

/**
 * The file name a download of `item` is saved under (download-name.ts): its device user's name as stored now, and
 * the extension its content's signature reads as (media-type.ts). Only the first bytes of the processed object are
 * read: the stream is dropped as soon as they arrived.
 */
export async function downloadNameOf(deps: Pick<Dependencies, 'table' | 'blobs'>, client: string, item: PayloadItem): Promise<string> {
  const [head, personName] = await Promise.all([
    objectHead(deps, payloadObjectKey(client, item.payload_reference)),
    item.device_user_reference === undefined ? undefined : deviceUserName(deps, client, item.device_user_reference),
  ]);
  return downloadFileName({
    payloadType: item.payload_type,
    personName,
    recordedAt: item.payload_time,
    payloadReference: item.payload_reference,
    extension: mediaTypeOf(head, item.payload_type).extension,
  });
}

/** "First Surname" of a device user, or undefined (no such user, or retention removed the name). */
async function deviceUserName(deps: Pick<Dependencies, 'table'>, client: string, reference: string): Promise<string | undefined> {
  const item = await deps.table.get(keys.deviceUser.key(client, reference));
  if (item === undefined) return undefined;
  const user = readDeviceUser(item);
  const name = [user.first_name, user.surname].filter((part) => typeof part === 'string' && part.trim() !== '').join(' ');
  return name === '' ? undefined : name;
}

/** Up to MEDIA_SIGNATURE_BYTES leading bytes of a processed object (none when it is absent). */
async function objectHead(deps: Pick<Dependencies, 'blobs'>, key: string): Promise<Uint8Array> {
  const object = await deps.blobs.get('processed', key);
  if (object === undefined) return new Uint8Array();
  return firstBytes(object.body, MEDIA_SIGNATURE_BYTES);
}

/** Reads until `count` bytes arrived or the stream ended, then destroys it (the rest is never fetched). */
export async function firstBytes(body: Readable, count: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      chunks.push(buffer);
      length += buffer.length;
      if (length >= count) break;
    }
  } finally {
    body.destroy();
  }
  return new Uint8Array(Buffer.concat(chunks).subarray(0, count));
}
