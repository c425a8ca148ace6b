import { Reply } from '../reply.ts';
import { answerHeaders } from './answer.ts';
import type { PipelineMiddleware } from './pipeline-state.ts';

/**
 * The implementation's value as the HTTP answer: a Reply chooses status and headers, a plain value is 200; no body
 * for 204 or an undefined value. Every answer is JSON, uncached, and names its request id.
 */
export const serializeResponse: PipelineMiddleware = {
  after: (request) => {
    const value = request.response;
    const status = value instanceof Reply ? value.status : 200;
    const body = value instanceof Reply ? value.body : value;
    const headers = answerHeaders(request, value instanceof Reply ? value.headers : {});
    request.response = body === undefined || status === 204 ? { statusCode: status, headers } : { statusCode: status, headers, body: JSON.stringify(body) };
  },
};
