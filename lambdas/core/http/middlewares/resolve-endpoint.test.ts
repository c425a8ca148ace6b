import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint.ts';
import { NotFoundError } from '../../errors.ts';
import { eventFor } from '../../testing/http-events.ts';
import { pipelineRequest, runHook } from '../../testing/pipeline-requests.ts';
import { resolveEndpoint } from './resolve-endpoint.ts';

const getThing = defineEndpoint({
  id: 'client.things.get',
  surface: 'client',
  method: 'GET',
  path: '/things/{thing_id}',
  auth: 'user',
  action: 'things:Get',
  group: 'devices',
  summary: 'One thing',
  params: z.strictObject({ thing_id: z.string() }),
  response: z.object({ id: z.string() }),
});
const step = resolveEndpoint(new Map([[`${getThing.method} ${getThing.fullPath}`, getThing]]));

describe('resolveEndpoint', () => {
  it('finds the endpoint by the route key', async () => {
    const request = pipelineRequest(eventFor(getThing, { pathParameters: { client: 'acme', thing_id: 'abc' } }));
    await runHook(step, 'before', request);
    expect(request.internal.pipeline?.endpoint).toBe(getThing);
  });

  it('answers 404 naming the route key (bounded) for a route it does not serve', async () => {
    const request = pipelineRequest(eventFor(getThing, { routeKey: `GET /api/v1/${'x'.repeat(500)}` }));
    const error = await runHook(step, 'before', request).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toBe(`No route GET /api/v1/${'x'.repeat(200 - 'GET /api/v1/'.length)}`);
    expect(request.internal.pipeline?.endpoint).toBeUndefined();
  });
});
