import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { z } from 'zod';
import { CALL_PAYLOAD_TYPES, MESSAGE_PAYLOAD_TYPES, PAYLOAD_TYPES } from '../../constants/payloads.ts';
import { formatIssues } from '../messages.ts';
import { expandPayloadTypes, payloadEndpoints, PayloadTypeFilter } from './payloads.ts';

/** An endpoint's query schema, as the pipeline uses it (parse in, plain object out). */
const endpoint = (id: string): z.ZodType<Record<string, unknown>> => {
  const found = payloadEndpoints.find((candidate) => candidate.id === id);
  if (found === undefined || !('query' in found) || found.query === undefined) throw new Error(`no query on ${id}`);
  return found.query as z.ZodType<Record<string, unknown>>;
};
const payloadsQuery = endpoint('client.payloads.list');
const commentsQuery = endpoint('client.comments.list');

/** The 400 lines a query would answer with, or [] when it parses. */
function lines(schema: typeof payloadsQuery, query: Record<string, unknown>): string[] {
  const result = schema.safeParse(query);
  return result.success ? [] : formatIssues(result.error, 'query');
}

describe('payload type filters', () => {
  it('expands the Calls and Messages groups, drops duplicates and keeps catalogue order', () => {
    expect(expandPayloadTypes(['Calls'])).toEqual(PAYLOAD_TYPES.filter((type) => (CALL_PAYLOAD_TYPES as readonly string[]).includes(type)));
    expect(expandPayloadTypes(['Messages']).sort()).toEqual([...MESSAGE_PAYLOAD_TYPES].sort());
    expect(expandPayloadTypes(['Call', 'Calls'])).toEqual(expandPayloadTypes(['Calls']));
    expect(expandPayloadTypes(['Photo', 'Messages'])).toEqual(['Photo', 'MMS', 'RCS', 'SMS']);
  });

  it('expands any filter to exactly the union of what its entries name', () => {
    fc.assert(
      fc.property(fc.subarray([...PayloadTypeFilter.options]), (filter) => {
        const expanded = expandPayloadTypes(filter);
        const union = new Set(filter.flatMap((entry) => (entry === 'Calls' ? CALL_PAYLOAD_TYPES : entry === 'Messages' ? MESSAGE_PAYLOAD_TYPES : [entry])));
        expect(new Set(expanded)).toEqual(union);
        expect(new Set(expanded).size).toBe(expanded.length);
      }),
    );
  });

  it('accepts group names beside type names on the payload and comment lists, as sent', () => {
    for (const schema of [payloadsQuery, commentsQuery]) {
      const parsed = schema.parse({ payload_types: 'Calls, Messages,Photo' }) as { payload_types: string[] };
      expect(parsed.payload_types).toEqual(['Calls', 'Messages', 'Photo']);
    }
    expect(lines(payloadsQuery, { payload_types: PayloadTypeFilter.options.join(',') })).toEqual([]);
  });

  it('refuses unknown names, wrong case, duplicates and empty lists with a 400 line', () => {
    expect(lines(payloadsQuery, { payload_types: 'calls' })[0]).toMatch(/^query\.payload_types\.0: Must be one of/);
    expect(lines(payloadsQuery, { payload_types: 'Call,Fax' })[0]).toMatch(/^query\.payload_types\.1: /);
    expect(lines(payloadsQuery, { payload_types: 'Calls,Calls' })[0]).toMatch(/^query\.payload_types: /);
    expect(lines(payloadsQuery, { payload_types: ',' })[0]).toMatch(/^query\.payload_types: /);
    expect(lines(payloadsQuery, { payload_types: 'Calls;DROP' })[0]).toMatch(/^query\.payload_types\.0: /);
  });
});

describe('comment list filters', () => {
  it('declares raised_by: 1 to 255 characters', () => {
    expect((commentsQuery.parse({ raised_by: 'admin@demo.test' }) as { raised_by: string }).raised_by).toBe('admin@demo.test');
    expect(lines(commentsQuery, { raised_by: '' })[0]).toMatch(/^query\.raised_by: /);
    expect(lines(commentsQuery, { raised_by: 'x'.repeat(256) })[0]).toMatch(/^query\.raised_by: /);
  });

  it('keeps raised_by off the payload list, which stays strict', () => {
    expect(lines(payloadsQuery, { raised_by: 'admin@demo.test' })[0]).toMatch(/raised_by/);
  });
});
