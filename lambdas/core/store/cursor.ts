import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { ValidationError } from '../errors.ts';
import type { QueryPage, QuerySpec } from '../ports/table-store.ts';

/**
 * What a cursor is bound to: the tenant and the exact list (index, partition and filters). A cursor minted for one
 * binding is refused for any other, so a caller cannot page into another tenant's partition or another list.
 */
export interface CursorBinding {
  client: string;
  /** A stable description of the query; build it with `describeQuery`. */
  query: string;
}

/** Longer than any cursor we mint; hostile megabyte strings are refused before any work. */
const MAX_CURSOR_LENGTH = 2048;
const INVALID = 'query.last_key: Invalid cursor';

const Payload = z.strictObject({
  v: z.literal(1),
  c: z.string(),
  q: z.string(),
  k: z.record(z.string(), z.string()),
});

/** Stable text for a list query: its index, partition and sort-key narrowing, and the filters that shape it (keys sorted). */
export function describeQuery(list: Pick<QuerySpec, 'index' | 'partition' | 'sort'>, filters: Record<string, string | number | boolean | undefined> = {}): string {
  const shown = Object.keys(filters)
    .filter((name) => filters[name] !== undefined)
    .sort()
    .map((name) => [name, filters[name]]);
  // A sort-key narrowing shapes the list too, so a cursor of one prefix or range never resumes another.
  return JSON.stringify(list.sort === undefined ? [list.index ?? 'table', list.partition, shown] : [list.index ?? 'table', list.partition, shown, list.sort]);
}

/** Paginated answer of the spec: `{count, last_key, data}`; `last_key` is absent on the last page. */
export interface Page<T> {
  count: number;
  last_key?: string;
  data: T[];
}

/** Encodes and checks pagination cursors: opaque base64url JSON plus an HMAC-SHA256 over it. */
export interface CursorCodec {
  encode(lastKey: Record<string, string>, binding: CursorBinding): string;
  /** The start key to resume from. Throws ValidationError `query.last_key: Invalid cursor` on any mismatch. */
  decode(cursor: string, binding: CursorBinding): Record<string, string>;
  /** A query page as the spec's paginated result, with `data` mapped from the items. */
  page<T>(result: QueryPage, binding: CursorBinding, toData: (item: QueryPage['items'][number]) => T): Page<T>;
}

export function createCursorCodec(secret: string): CursorCodec {
  if (secret.length < 32) throw new Error('CURSOR_SECRET must be at least 32 characters');
  const sign = (body: string) => createHmac('sha256', secret).update(body).digest();

  const codec: CursorCodec = {
    encode(lastKey, binding) {
      const body = Buffer.from(JSON.stringify({ v: 1, c: binding.client, q: binding.query, k: lastKey })).toString('base64url');
      return `${body}.${sign(body).toString('base64url')}`;
    },
    decode(cursor, binding) {
      if (cursor.length > MAX_CURSOR_LENGTH) throw new ValidationError([INVALID]);
      const [body, mac, ...rest] = cursor.split('.');
      if (body === undefined || mac === undefined || rest.length > 0) throw new ValidationError([INVALID]);
      const given = Buffer.from(mac, 'base64url');
      const expected = sign(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ValidationError([INVALID]);
      let payload: z.infer<typeof Payload>;
      try {
        payload = Payload.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
      } catch {
        throw new ValidationError([INVALID]);
      }
      // Checked after the MAC: a genuine cursor of another tenant or list is refused just like a forged one.
      if (payload.c !== binding.client || payload.q !== binding.query) throw new ValidationError([INVALID]);
      return payload.k;
    },
    page(result, binding, toData) {
      const data = result.items.map(toData);
      return {
        count: data.length,
        data,
        ...(result.lastKey === undefined ? {} : { last_key: codec.encode(result.lastKey, binding) }),
      };
    },
  };
  return codec;
}
