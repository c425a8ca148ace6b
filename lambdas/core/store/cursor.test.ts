import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.ts';
import { createCursorCodec, describeQuery } from './cursor.ts';
import { keys } from './keys.ts';

const codec = createCursorCodec('s'.repeat(32));
const acmeDevices = { client: 'acme', query: describeQuery(keys.device.list('acme')) };
const lastKey = { pk: 'C#acme#DEVICE#d1', sk: 'DEVICE', gsi1pk: 'C#acme#DEVICES', gsi1sk: 'd1' };

function refused(cursor: string, binding = acmeDevices): string[] {
  try {
    codec.decode(cursor, binding);
  } catch (error) {
    if (error instanceof ValidationError) return [...error.lines];
    throw error;
  }
  throw new Error('cursor accepted');
}

describe('cursor codec', () => {
  it('round-trips a last key as an opaque string', () => {
    const cursor = codec.encode(lastKey, acmeDevices);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('C#acme');
    expect(codec.decode(cursor, acmeDevices)).toEqual(lastKey);
  });

  it('refuses a cursor from another tenant or another list', () => {
    const cursor = codec.encode(lastKey, acmeDevices);
    expect(refused(cursor, { client: 'globex', query: acmeDevices.query })).toEqual(['query.last_key: Invalid cursor']);
    expect(refused(cursor, { client: 'acme', query: describeQuery(keys.deviceUser.list('acme')) })).toEqual([
      'query.last_key: Invalid cursor',
    ]);
    const filtered = { client: 'acme', query: describeQuery(keys.device.list('acme'), { group: 'Sales' }) };
    expect(refused(cursor, filtered)).toEqual(['query.last_key: Invalid cursor']);
  });

  it('refuses tampered, truncated, foreign-secret and junk cursors', () => {
    const cursor = codec.encode(lastKey, acmeDevices);
    const [body, mac] = cursor.split('.') as [string, string];
    const forgedBody = Buffer.from(JSON.stringify({ v: 1, c: 'acme', q: acmeDevices.query, k: { pk: 'C#globex#X', sk: 'Y' } })).toString('base64url');
    const flipped = `${body.slice(0, -1)}${body.endsWith('A') ? 'B' : 'A'}`;
    const other = createCursorCodec('t'.repeat(32)).encode(lastKey, acmeDevices);
    for (const bad of [`${forgedBody}.${mac}`, `${flipped}.${mac}`, body, `${body}.`, `${cursor}.x`, other, '', '..', 'x'.repeat(5000), '\u0000.\u0000']) {
      expect(refused(bad), bad.slice(0, 30)).toEqual(['query.last_key: Invalid cursor']);
    }
  });

  it('describes queries stably whatever the filter order, ignoring unset filters', () => {
    const list = keys.payload.list('acme');
    expect(describeQuery(list, { a: 1, b: 'x', c: undefined })).toBe(describeQuery(list, { b: 'x', a: 1 }));
    expect(describeQuery(list, { a: 1 })).not.toBe(describeQuery(list, { a: 2 }));
  });

  it('builds the spec page with last_key only when more may follow', () => {
    const items = [{ ...lastKey, entity: 'Device', device_reference: 'd1' }];
    const last = codec.page({ items }, acmeDevices, (item) => ({ device_reference: item.device_reference }));
    expect(last).toEqual({ count: 1, data: [{ device_reference: 'd1' }] });
    const more = codec.page({ items, lastKey }, acmeDevices, (item) => item.device_reference);
    expect(more.count).toBe(1);
    expect(codec.decode(more.last_key as string, acmeDevices)).toEqual(lastKey);
  });

  it('refuses a short secret', () => {
    expect(() => createCursorCodec('short')).toThrow(/32/);
  });
});
