import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint.ts';
import { ForbiddenError, NotImplementedError, PayloadTooLargeError, UnauthorizedError, ValidationError } from '../../errors.ts';
import { eventFor } from '../../testing/http-events.ts';
import { pipelineRequest, runHook } from '../../testing/pipeline-requests.ts';
import { errorResponse } from './error-response.ts';

const listThings = defineEndpoint({
  id: 'client.things.list',
  surface: 'client',
  method: 'GET',
  path: '/things',
  auth: 'user',
  action: 'things:List',
  group: 'devices',
  summary: 'Things',
  response: z.object({}),
});
const answerFor = async (error: Error) => {
  const request = pipelineRequest(eventFor(listThings, { pathParameters: { client: 'acme' } }), { error });
  await runHook(errorResponse, 'onError', request);
  const answer = request.response as { statusCode: number; headers: Record<string, string>; body: string };
  return { status: answer.statusCode, headers: answer.headers, body: JSON.parse(answer.body) as unknown };
};
const JSON_NO_STORE = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': 'req-1' };

describe('errorResponse', () => {
  it('answers a 4xx with one line per problem', async () => {
    const lines = ['params.id: Too short', 'query.limit: Too big'];
    expect(await answerFor(new ValidationError(lines))).toEqual({
      status: 400,
      headers: JSON_NO_STORE,
      body: { error_code: 400, message: lines.join('\n'), errors: lines },
    });
    expect((await answerFor(new ForbiddenError('Access denied: your roles do not allow things:List'))).body).toEqual({
      error_code: 403,
      message: 'Access denied: your roles do not allow things:List',
      errors: ['Access denied: your roles do not allow things:List'],
    });
    expect((await answerFor(new PayloadTooLargeError('body: Must be at most 1048576 bytes'))).status).toBe(413);
  });

  it('asks for a bearer token with a 401', async () => {
    const answer = await answerFor(new UnauthorizedError('Authorization required'));
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer');
  });

  it('shows nothing of an unexpected error: 500 with no detail', async () => {
    const answer = await answerFor(new Error('database password is hunter2'));
    expect(answer).toEqual({ status: 500, headers: JSON_NO_STORE, body: { error_code: 500, message: 'Internal Server Error' } });
  });

  it('names the endpoint of a 501 (public contract facts only)', async () => {
    const message = 'Not implemented yet: GET /api/v1/{client}/things (client.things.list)';
    expect((await answerFor(new NotImplementedError(message))).body).toEqual({ error_code: 501, message, errors: [message] });
  });
});
