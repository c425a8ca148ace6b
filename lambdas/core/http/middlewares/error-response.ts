import { errorAnswer } from './answer.ts';
import type { PipelineMiddleware } from './pipeline-state.ts';

/**
 * Any error, from any step or the implementation, as its HTTP answer (lambdas/core/errors.ts maps typed errors in
 * one place; only statuses under 500 show their messages). Registered last, so it is the first to see an error;
 * the activity record and the request log then see this answer.
 */
export const errorResponse: PipelineMiddleware = {
  onError: (request) => {
    request.response = errorAnswer(request, request.error);
  },
};
