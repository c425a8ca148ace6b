import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, ENDPOINT_GROUPS, type Endpoint } from '#shared/contract/endpoint.ts';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { ROLE_PERMISSIONS_MAX, PERMISSION_CONDITIONS_MAX, TAG_VALUES_MAX } from '#shared/contract/bounds.ts';
import { createOidcTokenVerifier } from '../auth/jwt-verifier.ts';
import { ItemTooLargeError, toErrorResponse } from '../errors.ts';
import { keys } from '../store/keys.ts';
import { bodyOf, eventFor, testContext, testDependencies } from '../testing/http-events.ts';
import { createMemoryTable } from '../testing/memory-table.ts';
import { namesPart, oversizedBodies } from '../testing/oversized-bodies.ts';
import { createTestIssuer, type TestIssuer } from '../testing/test-tokens.ts';
import { createHttpHandler } from './create-http-handler.ts';
import { implement } from './route.ts';
import { MAX_JSON_DEPTH, parseJsonSafely } from './safe-json.ts';
import { apiRecorders } from '../../api-recorders.ts';

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
    recorders: apiRecorders,
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

// ---------------------------------------------------------------- the registry's bounds, through the real pipeline

/** One handler per endpoint group over the real registry, with no routes: parsing runs before anything else. */
const registryHandlers = new Map(
  ENDPOINT_GROUPS.map((group) => [
    group,
    createHttpHandler({
      recorders: apiRecorders,
      group,
      endpoints: ENDPOINTS,
      routes: {},
      dependencies: testDependencies({ tokens: { verify: () => Promise.reject(new Error('no tokens in this test')) } as never }),
    }),
  ]),
);

const pathValues = (endpoint: Endpoint): Record<string, string> =>
  Object.fromEntries([...endpoint.fullPath.matchAll(/\{([a-z_]+)\}/g)].map((match) => [match[1] as string, match[1] === 'client' ? 'acme' : 'x01']));

async function sendTo(endpoint: Endpoint, body: string, headers: Record<string, string> = {}) {
  const handler = registryHandlers.get(endpoint.group) as ReturnType<typeof createHttpHandler>;
  const result = await handler(eventFor(endpoint, { pathParameters: pathValues(endpoint), body, headers }), testContext);
  const answer = bodyOf(result);
  return { status: result.statusCode as number, errors: (answer.errors as string[] | undefined) ?? [], message: String(answer.message) };
}

const endpointById = (id: string): Endpoint => {
  const endpoint = ENDPOINTS.find((candidate) => candidate.id === id);
  if (endpoint === undefined) throw new Error(`no endpoint ${id}`);
  return endpoint;
};

describe('the registry bounds every body: oversized parts are a 400 naming the part, never a 5xx', () => {
  it('every bounded array, map, text and number of every body, one past its bound', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const endpoint of ENDPOINTS) {
      for (const { where, body } of oversizedBodies(endpoint)) {
        const { status, errors } = await sendTo(endpoint, body);
        sent += 1;
        if (status !== 400 || !errors.some((line) => namesPart(line, where))) failures.push(`${endpoint.id} ${where}: ${status} ${errors.slice(0, 3).join(' | ')}`);
      }
    }
    expect(sent).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  }, 60_000);

  it('a role of 10,000 permissions and a role with 3,000 conditions', async () => {
    const roles = endpointById('admin.roles.put');
    const alerts = { ops_read: true, ops_write: false, sec_read: false, sec_write: false };
    const many = await sendTo(roles, JSON.stringify({ permissions: Array.from({ length: 10_000 }, () => ({ actions_matching: '*' })), alert_permissions: alerts }));
    expect(many).toMatchObject({ status: 400, errors: [`body.permissions: Must contain between 1 and ${ROLE_PERMISSIONS_MAX} items`] });
    const conditions = Array.from({ length: 3000 }, () => ({ names_matching: 'sales-*' }));
    const deep = await sendTo(roles, JSON.stringify({ permissions: [{ actions_matching: '*', conditions }], alert_permissions: alerts }));
    expect(deep).toMatchObject({ status: 400, errors: [`body.permissions.0.conditions: Must contain at most ${PERMISSION_CONDITIONS_MAX} items`] });
  });

  it('a tag definition of 2,900 long values', async () => {
    const values = Array.from({ length: 2900 }, (_, index) => `${index}`.padEnd(255, 'v'));
    const answer = await sendTo(endpointById('admin.tags.put'), JSON.stringify({ tag_values: values }));
    expect(answer).toMatchObject({ status: 400, errors: [`body.tag_values: Must contain at most ${TAG_VALUES_MAX} items`] });
  });

  it('command params past MAX_SAFE_INTEGER, also as raw JSON text JSON.parse cannot hold', async () => {
    const command = endpointById('admin.devices.commands.send');
    const range = `Must be a number between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`;
    for (const raw of ['1e308', '18446744073709551616', '-18446744073709551616']) {
      const answer = await sendTo(command, `{"command":"sms_auto_response","params":{"delay":${raw}}}`);
      expect(answer, raw).toMatchObject({ status: 400, errors: [`body.params.delay: ${range}`] });
    }
    const tiny = await sendTo(command, '{"command":"sms_auto_response","params":{"delay":1e-200}}');
    expect(tiny).toMatchObject({ status: 400, errors: ['body.params.delay: Must be 0 or at least 1e-130 in size'] });
    const infinite = await sendTo(command, '{"command":"sms_auto_response","params":{"delay":1e400}}');
    expect(infinite.status).toBe(400);
  });
});

describe('a body must be declared as JSON', () => {
  const tags = endpointById('admin.tags.put');
  const definition = JSON.stringify({ tag_values: ['a', 'b'] });

  it('answers 415 to a form, plain text, or no content type at all, with one headers.content-type line', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain;charset=UTF-8', 'multipart/form-data; boundary=x', 'application/jsonp', 'application/json; charset=latin1']) {
      const answer = await sendTo(tags, definition, { 'content-type': type });
      expect(answer.status, type).toBe(415);
      expect(answer.errors, type).toEqual([`headers.content-type: Must be application/json for a request with a body (got ${type})`]);
    }
    const handler = registryHandlers.get(tags.group) as ReturnType<typeof createHttpHandler>;
    const event = eventFor(tags, { pathParameters: pathValues(tags), body: definition });
    delete event.headers['content-type'];
    const untyped = await handler(event, testContext);
    expect(untyped.statusCode).toBe(415);
    expect(bodyOf(untyped).errors).toEqual(['headers.content-type: Must be application/json for a request with a body (got none)']);
  });

  it('takes application/json with or without charset=utf-8, in any letter case, past the media check', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8', 'application/json; charset="utf-8"']) {
      // No token: the media check passes and the call stops at authentication (401), not at 415.
      expect((await sendTo(tags, definition, { 'content-type': type })).status, type).toBe(401);
    }
  });

  it('lets a bodiless request send any content type or none', async () => {
    const list = endpointById('admin.tags.list');
    const handler = registryHandlers.get(list.group) as ReturnType<typeof createHttpHandler>;
    for (const headers of [{}, { 'content-type': 'text/plain' }] as Array<Record<string, string>>) {
      const result = await handler(eventFor(list, { pathParameters: pathValues(list), headers }), testContext);
      expect(result.statusCode).toBe(401);
    }
    // Whitespace alone is no body, whatever its type.
    const blank = eventFor(list, { pathParameters: pathValues(list), body: ' \n' });
    delete blank.headers['content-type'];
    expect((await handler(blank, testContext)).statusCode).toBe(401);
  });

  it('checks size before type: an oversized body of any type is a 413', async () => {
    const answer = await sendTo(tags, 'x'.repeat(1024 * 1024 + 1), { 'content-type': 'text/plain' });
    expect(answer.status).toBe(413);
  });
});

describe('a record too large to store', () => {
  it('is a 413 naming the body field it came from when the route has one of that name, else body', async () => {
    const tags = endpointById('admin.tags.put');
    const input = { params: {}, query: {}, client: 'acme', principal: undefined, access: undefined, requestId: 'r' };
    const failing = (attribute: string) => implement(tags, async () => Promise.reject(new ItemTooLargeError(attribute)));
    const named = await failing('tag_values')({ ...input, body: { tag_values: [], is_required: false, force_update: false } } as never, {} as never).catch((error: unknown) => error);
    expect(toErrorResponse(named)).toMatchObject({
      status: 413,
      body: { errors: ['body.tag_values: Too large to store: the record would exceed the 400 KB item limit'] },
    });
    const unnamed = await failing('sealed_meta')({ ...input, body: { tag_values: null } } as never, {} as never).catch((error: unknown) => error);
    expect(toErrorResponse(unnamed).body.errors).toEqual([
      'body: Too large to store: the record would exceed the 400 KB item limit (its largest part is sealed_meta)',
    ]);
  });
});
