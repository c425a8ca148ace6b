import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint.ts';
import { InternalError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../../errors.ts';
import { eventFor } from '../../testing/http-events.ts';
import { pipelineRequest, runHook } from '../../testing/pipeline-requests.ts';
import { parseInput } from './parse-input.ts';

const renameThing = defineEndpoint({
  id: 'admin.things.rename',
  surface: 'admin',
  method: 'PUT',
  path: '/things/{thing_id}',
  auth: 'user',
  action: 'things:Rename',
  group: 'devices',
  summary: 'Rename a thing',
  params: z.strictObject({ thing_id: z.string().min(3) }),
  query: z.strictObject({ dry_run: z.enum(['true', 'false']).optional() }),
  body: z.strictObject({ name: z.string().min(1) }),
  response: z.object({ name: z.string() }),
});
const parse = (event: ReturnType<typeof eventFor>) => {
  const request = pipelineRequest(event, { state: { endpoint: renameThing } });
  return { request, run: () => runHook(parseInput, 'before', request) };
};

describe('parseInput', () => {
  it('keeps the input parsed with the contract, and the path tenant', async () => {
    const { request, run } = parse(
      eventFor(renameThing, { pathParameters: { client: 'acme', thing_id: 'abc' }, query: { dry_run: 'true' }, body: '{"name":"New"}' }),
    );
    await run();
    expect(request.internal.pipeline?.input).toEqual({ params: { thing_id: 'abc' }, query: { dry_run: 'true' }, body: { name: 'New' }, client: 'acme' });
  });

  it('refuses with one params., query. and body. line per problem', async () => {
    const { request, run } = parse(
      eventFor(renameThing, { pathParameters: { client: 'ACME!', thing_id: 'x' }, query: { colour: 'red' }, body: '{"name":""}' }),
    );
    const error = await run().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ValidationError);
    const lines = (error as ValidationError).lines;
    for (const prefix of ['params.client: ', 'params.thing_id: ', 'query.colour: ', 'body.name: ']) {
      expect(lines.some((line) => line.startsWith(prefix))).toBe(true);
    }
    expect(request.internal.pipeline?.input).toBeUndefined();
  });

  it('refuses a body not declared as JSON (415) and one over 1 MiB (413)', async () => {
    const path = { client: 'acme', thing_id: 'abc' };
    const form = parse(eventFor(renameThing, { pathParameters: path, body: 'name=New', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
    await expect(form.run()).rejects.toBeInstanceOf(UnsupportedMediaTypeError);
    const big = parse(eventFor(renameThing, { pathParameters: path, body: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }) }));
    await expect(big.run()).rejects.toBeInstanceOf(PayloadTooLargeError);
  });

  it('is our bug (500) when no endpoint was resolved before it', async () => {
    const request = pipelineRequest(eventFor(renameThing));
    await expect(runHook(parseInput, 'before', request)).rejects.toBeInstanceOf(InternalError);
  });
});
