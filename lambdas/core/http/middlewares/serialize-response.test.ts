import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint.ts';
import { eventFor } from '../../testing/http-events.ts';
import { pipelineRequest, runHook } from '../../testing/pipeline-requests.ts';
import { reply } from '../reply.ts';
import { serializeResponse } from './serialize-response.ts';

const createThing = defineEndpoint({
  id: 'admin.things.create',
  surface: 'admin',
  method: 'POST',
  path: '/things',
  auth: 'user',
  action: 'things:Create',
  group: 'devices',
  summary: 'Create a thing',
  response: z.object({ name: z.string() }),
});
const serialize = async (value: unknown) => {
  const request = pipelineRequest(eventFor(createThing, { pathParameters: { client: 'acme' } }), { response: value });
  await runHook(serializeResponse, 'after', request);
  return request.response;
};
const JSON_NO_STORE = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': 'req-1' };

describe('serializeResponse', () => {
  it('answers a plain value as 200 JSON, uncached, naming the request', async () => {
    expect(await serialize({ name: 'n' })).toEqual({ statusCode: 200, headers: JSON_NO_STORE, body: '{"name":"n"}' });
  });

  it("takes a Reply's status and headers, never letting them replace the request id", async () => {
    const answer = await serialize(reply({ name: 'n' }, { status: 201, headers: { location: '/things/n', 'x-request-id': 'forged' } }));
    expect(answer).toEqual({ statusCode: 201, headers: { ...JSON_NO_STORE, location: '/things/n' }, body: '{"name":"n"}' });
  });

  it('sends no body for 204 or for no value', async () => {
    expect(await serialize(reply({ name: 'ignored' }, { status: 204 }))).toEqual({ statusCode: 204, headers: JSON_NO_STORE });
    expect(await serialize(undefined)).toEqual({ statusCode: 200, headers: JSON_NO_STORE });
  });
});
