import { InternalError } from '../../errors.ts';
import { Reply } from '../reply.ts';
import { pipelineState, type PipelineMiddleware } from './pipeline-state.ts';

/**
 * In local and test mode (`VALIDATE_RESPONSES`), the implementation's value is checked against the endpoint's
 * response schema: a response that breaks its own contract is our bug, answered 500 with the reasons logged.
 * Registered after the serialize step, so it runs before it and sees the value itself.
 */
export const validateResponse: PipelineMiddleware = {
  after: (request) => {
    const state = pipelineState(request);
    if (!state.dependencies?.config.VALIDATE_RESPONSES || state.endpoint === undefined) return;
    const body = request.response instanceof Reply ? request.response.body : request.response;
    const result = state.endpoint.response.safeParse(body);
    if (!result.success) {
      throw new InternalError(`Response of ${state.endpoint.id} breaks its contract`, {
        cause: result.error.issues.slice(0, 20).map((issue) => `${issue.path.join('.')}: ${issue.message}`),
      });
    }
  },
};
