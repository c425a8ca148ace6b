import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint.ts';
import type { Principal } from '../../auth/principal.ts';
import { InternalError, NotImplementedError, ValidationError } from '../../errors.ts';
import { eventFor, testDependencies } from '../../testing/http-events.ts';
import { pipelineRequest, runHook } from '../../testing/pipeline-requests.ts';
import { requestLog } from './request-log.ts';

const listThings = defineEndpoint({
  id: 'client.things.list',
  surface: 'client',
  method: 'GET',
  path: '/things',
  auth: 'user',
  action: 'things:List',
  group: 'devices',
  summary: 'Things',
  response: z.object({ count: z.number() }),
});
const event = () => eventFor(listThings, { pathParameters: { client: 'acme' }, headers: { authorization: 'Bearer secret-token' } });
const principal: Principal = { kind: 'user', subject: 'user-1', email: 'ada@example.com', client: 'acme', groups: ['Admins'], tokenIssuer: 'https://issuer' };

function setup() {
  const logLines: string[] = [];
  const dependencies = testDependencies({ tokens: { verify: () => Promise.reject(new Error('no tokens here')) }, logLines });
  const lines = () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { dependencies, lines };
}

describe('requestLog', () => {
  it('resolves the dependencies per request before anything else', async () => {
    const { dependencies } = setup();
    let resolved = 0;
    const step = requestLog(() => {
      resolved += 1;
      return dependencies;
    });
    const request = pipelineRequest(event());
    await runHook(step, 'before', request);
    await runHook(step, 'before', pipelineRequest(event()));
    expect(request.internal.pipeline?.dependencies).toBe(dependencies);
    expect(resolved).toBe(2);
  });

  it('logs one info line with id, route, endpoint, status, duration and principal, and no token or email', async () => {
    const { dependencies, lines } = setup();
    const request = pipelineRequest(event(), {
      state: { dependencies, endpoint: listThings, principal },
      response: { statusCode: 200, headers: {}, body: '{"count":1}' },
    });
    await runHook(requestLog(() => dependencies), 'after', request);
    expect(lines()).toHaveLength(1);
    const line = lines()[0] as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'info',
      message: 'request',
      request_id: 'req-1',
      route: 'GET /api/v1/{client}/things',
      endpoint: 'client.things.list',
      status: 200,
      principal: { kind: 'user', client: 'acme', subject: 'user-1' },
    });
    expect(typeof line.duration_ms).toBe('number');
    expect(JSON.stringify(line)).not.toContain('secret-token');
    expect(JSON.stringify(line)).not.toContain('ada@example.com');
  });

  it('logs a refusal at info with the error name, and a fault at error with its detail', async () => {
    const { dependencies, lines } = setup();
    const step = requestLog(() => dependencies);
    const refused = new ValidationError(['query.limit: Too big']);
    await runHook(step, 'onError', pipelineRequest(event(), { state: { dependencies }, response: { statusCode: 400 }, error: refused }));
    const fault = new InternalError('database password is hunter2');
    await runHook(step, 'onError', pipelineRequest(event(), { state: { dependencies }, response: { statusCode: 500 }, error: fault }));
    const [refusal, failure] = lines();
    expect(refusal).toMatchObject({ level: 'info', status: 400, error: 'ValidationError' });
    expect(failure).toMatchObject({ level: 'error', status: 500 });
    expect(JSON.stringify(failure)).toContain('hunter2');
  });

  it('logs a 501 as an expected answer, not a fault', async () => {
    const { dependencies, lines } = setup();
    const error = new NotImplementedError('Not implemented yet: GET /api/v1/{client}/things (client.things.list)');
    await runHook(requestLog(() => dependencies), 'onError', pipelineRequest(event(), { state: { dependencies }, response: { statusCode: 501 }, error }));
    expect(lines()[0]).toMatchObject({ level: 'info', status: 501, error: 'NotImplementedError' });
  });

  it('counts a request without an answer as a 500', async () => {
    const { dependencies, lines } = setup();
    await runHook(requestLog(() => dependencies), 'onError', pipelineRequest(event(), { state: { dependencies }, error: new Error('lost') }));
    expect(lines()[0]).toMatchObject({ level: 'error', status: 500 });
  });
});
