import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint.ts';
import { createOidcTokenVerifier } from '../auth/jwt-verifier.ts';
import { keys } from '../store/keys.ts';
import { bodyOf, eventFor, testContext, testDependencies } from '../testing/http-events.ts';
import { createMemoryTable } from '../testing/memory-table.ts';
import { createTestIssuer, type TestIssuer } from '../testing/test-tokens.ts';
import { createHttpHandler } from './create-http-handler.ts';
import { implement } from './route.ts';
import { MAX_JSON_DEPTH, parseJsonSafely } from './safe-json.ts';

const Tag = z.object({ tag_key: z.string().min(1).max(60), tag_value: z.string().max(255) });
const updateGroup = defineEndpoint({
  id: 'admin.groups.update',
  surface: 'admin',
  method: 'PUT',
  path: '/groups/{group_reference}',
  auth: 'user',
  action: 'groups:Update',
  group: 'access',
  summary: 'Update a group',
  params: z.strictObject({ group_reference: z.string().min(2).max(255) }),
  query: z.strictObject({ force_update: z.enum(['true', 'false']).optional() }),
  body: z.object({ tags: z.array(Tag).max(50), settings: z.record(z.string(), z.string()).optional(), extra: z.unknown() }),
  response: z.object({ tags: z.array(Tag), merged: z.record(z.string(), z.unknown()) }),
});

let issuer: TestIssuer;
let token: string;
let seenBodies: unknown[];
const seenMerges: Array<Record<string, unknown>> = [];
let handler: ReturnType<typeof createHttpHandler>;
beforeAll(async () => {
  issuer = await createTestIssuer();
  token = await issuer.sign({ 'custom:client': 'acme' });
  seenBodies = [];
  handler = createHttpHandler({
    group: 'access',
    endpoints: [updateGroup],
    routes: {
      [updateGroup.id]: implement(updateGroup, async ({ body }) => {
        seenBodies.push(body);
        // The kind of merge that turns a `__proto__` key into a prototype change, were it to reach here.
        const merged = Object.assign({}, body.settings, body.extra);
        seenMerges.push(merged);
        return { tags: body.tags, merged };
      }),
    },
    dependencies: testDependencies({
      tokens: createOidcTokenVerifier({ issuer: issuer.issuer, audiences: [issuer.audience], keySource: issuer.keySource }),
      // The token's group `Admins` names a role allowing everything, so hostile bodies reach the implementation.
      table: createMemoryTable([
        {
          ...keys.role.item('acme', 'Admins'),
          role_reference: 'Admins',
          permissions: [{ actions_matching: '*' }],
          payload_types: [],
          alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
        },
      ]),
    }),
  });
});

const send = async (request: { body?: string; group?: string; query?: Record<string, string>; base64?: boolean; auth?: string }) => {
  const result = await handler(
    eventFor(updateGroup, {
      pathParameters: { client: 'acme', group_reference: request.group ?? 'sales' },
      ...(request.query ? { query: request.query } : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
      isBase64Encoded: request.base64 ?? false,
      headers: { authorization: request.auth ?? `Bearer ${token}` },
    }),
    testContext,
  );
  return { status: result.statusCode as number, body: bodyOf(result) };
};

describe('hostile input never gives a 5xx', () => {
  it('drops __proto__ keys so a later merge cannot change a prototype', async () => {
    const { status, body } = await send({
      body: '{"tags":[],"settings":{"__proto__":{"polluted":"yes"},"a":"b"},"extra":{"__proto__":{"polluted":"yes"}}}',
    });
    expect(status).toBe(200);
    expect(body.merged).toEqual({ a: 'b' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(seenBodies.at(-1))).toBe(Object.prototype);
    const merged = seenMerges.at(-1) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(merged.polluted).toBeUndefined();
  });

  it('refuses nesting deeper than the limit with a 400', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const { status, body } = await send({ body: deep });
    expect(status).toBe(400);
    expect(body.errors).toEqual([`body: Nested deeper than ${MAX_JSON_DEPTH} levels`]);
  });

  it('answers 400 to wrong types, huge strings, unicode and junk', async () => {
    const cases = [
      '{"tags":"not an array"}',
      `{"tags":[{"tag_key":"${'k'.repeat(500_000)}","tag_value":"v"}]}`,
      '{"tags":[{"tag_key":"\u0000\ud83d\ude00","tag_value":"\u202e"}],"settings":{"x":1}}',
      'null',
      '[]',
      '"string"',
      '1e400',
      '\ufeff{"tags":[]}',
      '{"tags":[' + '{"tag_key":"k","tag_value":"v"},'.repeat(60) + '{"tag_key":"k","tag_value":"v"}]}',
    ];
    for (const body of cases) {
      const result = await send({ body });
      expect(result.status, body.slice(0, 60)).toBe(400);
      expect(result.body.error_code).toBe(400);
    }
  });

  it('caps the error body when a hostile key is enormous', async () => {
    const { status, body } = await send({ body: '{"tags":[]}', query: { ['k'.repeat(100_000)]: 'v' } });
    expect(status).toBe(400);
    expect(String(body.message).length).toBeLessThan(1000);
  });

  it('answers 400 to an invalid group reference and bad base64', async () => {
    expect((await send({ body: '{"tags":[]}', group: 'x' })).status).toBe(400);
    expect((await send({ body: '%%%not base64%%%', base64: true })).status).toBe(400);
  });

  it('answers 4xx to random bodies, query values and headers (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.jsonValue().map((value) => JSON.stringify(value))),
        fc.dictionary(fc.string({ maxLength: 20 }), fc.string({ maxLength: 50 }), { maxKeys: 3 }),
        fc.oneof(fc.constant(`Bearer ${token}`), fc.string(), fc.string().map((value) => `Bearer ${value}`)),
        async (body, query, auth) => {
          const { status } = await send({ body, query, auth });
          expect(status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('parseJsonSafely', () => {
  it('keeps ordinary JSON and nesting up to the limit', () => {
    const nested = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(parseJsonSafely(nested).ok).toBe(true);
    expect(parseJsonSafely('{"constructor":"kept","a":[1,{"b":null}]}')).toEqual({
      ok: true,
      value: { constructor: 'kept', a: [1, { b: null }] },
    });
  });

  it('drops nested __proto__ keys', () => {
    const result = parseJsonSafely('{"a":[{"__proto__":{"x":1},"y":2}]}');
    expect(result).toEqual({ ok: true, value: { a: [{ y: 2 }] } });
  });
});
