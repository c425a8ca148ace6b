import { Readable } from 'node:stream';
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { describeQuery } from '#core/store/cursor.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { stack } from './support/stack.ts';

/**
 * The core adapters, built by the real composition root from the stack's environment, against the real
 * stand-ins: DynamoDB Local and s3rver. What the unit tests mock, this proves on the wire.
 */
let deps: Dependencies;
const run = randomUUID().slice(0, 8);
const client = 'demo';

beforeAll(() => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
});
afterAll(() => undefined);

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

describe('DynamoDB Local through the table store', () => {
  it('puts and gets an item, and refuses a create over an existing one', async () => {
    const item = { ...keys.group.item(client, `it-${run}-g`), group_reference: `it-${run}-g`, tags: [{ tag_key: 'k', tag_value: 'v' }] };
    await deps.table.put(item, { condition: { kind: 'item-not-exists' } });
    expect(await deps.table.get(item, { consistent: true })).toEqual(item);
    await expect(deps.table.put(item, { condition: { kind: 'item-not-exists' } })).rejects.toBeInstanceOf(ConditionFailedError);
  });

  it('answers undefined for a missing item', async () => {
    expect(await deps.table.get(keys.group.item(client, `it-${run}-missing`))).toBeUndefined();
  });

  it('pages a query on an index with a tamper-evident cursor bound to the list', async () => {
    const devices = Array.from({ length: 5 }, (_, index) => `it-${run}-d${index}`);
    for (const reference of devices) {
      await deps.table.put({ ...keys.device.item('acme', reference), device_reference: reference });
    }
    const list = keys.device.list('acme');
    const binding = { client: 'acme', query: describeQuery(list) };
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const startKey = cursor === undefined ? undefined : deps.cursors.decode(cursor, binding);
      const result = await deps.table.query({ ...list, sort: { beginsWith: `it-${run}-` }, limit: 2, ...(startKey ? { startKey } : {}) });
      const page = deps.cursors.page(result, binding, (item) => item.device_reference as string);
      seen.push(...page.data);
      cursor = page.last_key;
      pages += 1;
      if (cursor !== undefined) {
        // A cursor is opaque (no raw key visible) and refused for another tenant or when altered.
        expect(cursor).not.toContain('acme');
        expect(() => deps.cursors.decode(cursor as string, { client: 'demo', query: binding.query })).toThrow();
        expect(() => deps.cursors.decode(`${cursor}x`, binding)).toThrow();
      }
    } while (cursor !== undefined && pages < 10);
    expect(seen).toEqual(devices);
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it('keeps atomic counters with ADD', async () => {
    const key = keys.account.setting(client, `it-${run}-counter`);
    await Promise.all(Array.from({ length: 5 }, () => deps.table.update(key, { add: { total: 1 } })));
    expect((await deps.table.get(key, { consistent: true }))?.total).toBe(5);
  });
});

describe('s3rver through the blob store', () => {
  it('puts and gets a stream byte for byte', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 * 1024 }, (_, index) => (index * 31) % 256));
    const key = `${client}/it-${run}/stream.bin`;
    await deps.blobs.put('raw', key, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), {
      contentLength: bytes.length,
      contentType: 'application/octet-stream',
      metadata: { checksum: 'abc' },
    });
    const object = await deps.blobs.get('raw', key);
    expect(object).toBeDefined();
    expect(object!.metadata.checksum).toBe('abc');
    expect((await readAll(object!.body)).equals(bytes)).toBe(true);
  });

  it('keeps nothing of a PUT whose body fails half-way, as S3 does: no new object, the old one untouched', async () => {
    const key = `${client}/it-${run}/aborted.bin`;
    const refused = (bytes: Buffer) =>
      Readable.from(
        (async function* () {
          yield bytes;
          // Let s3rver receive and write the first half before the body fails.
          await new Promise((resolve) => setTimeout(resolve, 100));
          throw new Error('tag does not verify');
        })(),
      );
    const half = Buffer.alloc(64 * 1024, 7);
    await expect(deps.blobs.put('processed', key, refused(half), { contentLength: half.length * 2 })).rejects.toThrow('tag does not verify');
    expect(await deps.blobs.head('processed', key)).toBeUndefined();

    await deps.blobs.put('processed', key, Buffer.from('the whole object'));
    await expect(deps.blobs.put('processed', key, refused(half), { contentLength: half.length * 2 })).rejects.toThrow('tag does not verify');
    const kept = await deps.blobs.get('processed', key);
    expect((await readAll(kept!.body)).toString()).toBe('the whole object');
  });

  it('answers undefined for a missing object', async () => {
    expect(await deps.blobs.get('processed', `${client}/it-${run}/nothing`)).toBeUndefined();
    expect(await deps.blobs.head('processed', `${client}/it-${run}/nothing`)).toBeUndefined();
  });

  it('makes pre-signed GET and PUT URLs that work with plain fetch', async () => {
    const key = `${client}/it-${run}/presigned.txt`;
    const body = 'uploaded by a device';
    const checksumSha256 = createHash('sha256').update(body).digest('base64');
    const putUrl = await deps.blobs.presignPut('raw', key, { expiresInSeconds: 60, contentType: 'text/plain', contentLength: body.length, checksumSha256 });
    const put = await fetch(putUrl, { method: 'PUT', body, headers: { 'content-type': 'text/plain', 'x-amz-checksum-sha256': checksumSha256 } });
    expect(put.status).toBe(200);
    const getUrl = await deps.blobs.presignGet('raw', key, { expiresInSeconds: 60, downloadName: 'call recording.txt' });
    const got = await fetch(getUrl);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('uploaded by a device');
  });
});
