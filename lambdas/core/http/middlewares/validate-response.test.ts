import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint.ts';
import { InternalError } from '../../errors.ts';
import { eventFor, testDependencies } from '../../testing/http-events.ts';
import { pipelineRequest, runHook } from '../../testing/pipeline-requests.ts';
import { reply } from '../reply.ts';
import { validateResponse } from './validate-response.ts';

const countThings = defineEndpoint({
  id: 'client.things.count',
  surface: 'client',
  method: 'GET',
  path: '/things/count',
  auth: 'user',
  action: 'things:Count',
  group: 'devices',
  summary: 'Count things',
  response: z.object({ count: z.number() }),
});
const validate = (value: unknown, validateResponses = true) => {
  const dependencies = testDependencies({ tokens: { verify: () => Promise.reject(new Error('no tokens here')) }, validateResponses });
  const request = pipelineRequest(eventFor(countThings, { pathParameters: { client: 'acme' } }), { state: { dependencies, endpoint: countThings }, response: value });
  return runHook(validateResponse, 'after', request);
};

describe('validateResponse', () => {
  it('passes a response that keeps its contract, plain or in a Reply', async () => {
    await expect(validate({ count: 3 })).resolves.toBeUndefined();
    await expect(validate(reply({ count: 3 }, { status: 201 }))).resolves.toBeUndefined();
  });

  it('answers 500 for a response that breaks its contract, keeping why for the log', async () => {
    const error = await validate(reply({ count: 'many' })).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InternalError);
    expect((error as InternalError).message).toBe('Response of client.things.count breaks its contract');
    expect((error as InternalError).cause).toEqual([expect.stringMatching(/^count: /)]);
  });

  it('checks nothing when response validation is off (production)', async () => {
    await expect(validate({ count: 'many' }, false)).resolves.toBeUndefined();
  });
});
