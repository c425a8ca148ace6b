import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { PipelineMiddleware, PipelineRequest, PipelineState } from '../http/middlewares/pipeline-state.ts';
import { testContext } from './http-events.ts';

/**
 * Test helper: the middy request one HTTP pipeline step sees, built by hand: the event, a context of its own, the
 * state the earlier steps would have left, and (for `after` and `onError` hooks) the answer or error so far.
 */
export function pipelineRequest(
  event: APIGatewayProxyEventV2,
  options: { state?: Omit<PipelineState, 'startedAt'>; response?: unknown; error?: Error } = {},
): PipelineRequest {
  return {
    event,
    context: { ...testContext },
    response: options.response,
    error: options.error ?? null,
    internal: { pipeline: { startedAt: performance.now(), ...options.state } },
  };
}

/**
 * Test helper: runs one hook of a step as middy does (awaited, so a synchronous throw is a rejection), and fails if
 * the hook returned a value: middy would take that as an early answer and skip the rest of the pipeline.
 */
export async function runHook(step: PipelineMiddleware, hook: 'before' | 'after' | 'onError', request: PipelineRequest): Promise<void> {
  const run = step[hook];
  if (run === undefined) throw new Error(`The step has no ${hook} hook`);
  const returned: unknown = await run(request);
  if (returned !== undefined) throw new Error(`The ${hook} hook returned a value: middy would end the request early`);
}
