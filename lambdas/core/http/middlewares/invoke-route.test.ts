import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint.ts';
import type { Principal } from '../../auth/principal.ts';
import { InternalError, NotImplementedError } from '../../errors.ts';
import { eventFor, testContext, testDependencies } from '../../testing/http-events.ts';
import { pipelineRequest, runHook } from '../../testing/pipeline-requests.ts';
import { implement } from '../route.ts';
import { handOverRouteCall, invokeRoute } from './invoke-route.ts';

const renameThing = defineEndpoint({
  id: 'admin.things.rename',
  surface: 'admin',
  method: 'PUT',
  path: '/things/{thing_id}',
  auth: 'user',
  action: 'things:Rename',
  group: 'devices',
  summary: 'Rename a thing',
  params: z.strictObject({ thing_id: z.string() }),
  body: z.strictObject({ name: z.string() }),
  response: z.object({ name: z.string(), by: z.string() }),
});
const user: Principal = { kind: 'user', subject: 'user-1', email: undefined, client: 'acme', groups: ['admin'], tokenIssuer: 'https://issuer' };
const dependencies = testDependencies({ tokens: { verify: () => Promise.reject(new Error('no tokens here')) } });

async function handedOver() {
  const event = eventFor(renameThing, { pathParameters: { client: 'acme', thing_id: 't-1' }, body: '{"name":"New"}' });
  const input = { params: { thing_id: 't-1' }, query: {}, body: { name: 'New' }, client: 'acme' };
  const request = pipelineRequest(event, { state: { dependencies, endpoint: renameThing, input, principal: user } });
  const shared = request.context;
  await runHook(handOverRouteCall, 'before', request);
  return { request, shared };
}

describe('handOverRouteCall and invokeRoute', () => {
  it("hands the implementation its parsed input, caller and request id, on this request's own context", async () => {
    const { request, shared } = await handedOver();
    expect(request.context.routeCall).toEqual({
      endpoint: renameThing,
      dependencies,
      input: { params: { thing_id: 't-1' }, query: {}, body: { name: 'New' }, client: 'acme', principal: user, access: undefined, requestId: 'req-1' },
    });
    expect(request.context.awsRequestId).toBe(testContext.awsRequestId);
    // The caller's context (possibly shared between calls) is left as it was.
    expect(shared.routeCall).toBeUndefined();
  });

  it("calls the endpoint's implementation with the input and dependencies", async () => {
    const { request } = await handedOver();
    const handler = invokeRoute({
      [renameThing.id]: implement(renameThing, async (input, deps) => {
        expect(deps).toBe(dependencies);
        return { name: input.body.name, by: input.principal?.kind ?? 'nobody' };
      }),
    });
    expect(await handler(request.event, request.context)).toEqual({ name: 'New', by: 'user' });
  });

  it('answers 501 naming the endpoint while it has no implementation', async () => {
    const { request } = await handedOver();
    const error = await invokeRoute({})(request.event, request.context).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(NotImplementedError);
    expect((error as Error).message).toBe('Not implemented yet: PUT /api/v1/{client}/things/{thing_id} (admin.things.rename)');
  });

  it('is our bug (500) when called without a handed-over call', async () => {
    await expect(invokeRoute({})(eventFor(renameThing), { ...testContext })).rejects.toBeInstanceOf(InternalError);
  });
});
