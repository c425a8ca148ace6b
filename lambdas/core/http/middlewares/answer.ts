import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { toErrorResponse } from '../../errors.ts';
import { requestIdOf, type PipelineRequest } from './pipeline-state.ts';

/** Every answer is JSON and never cached (answers are per caller). */
export const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** Headers of an answer to this request: JSON, the given ones, and the request id. */
export function answerHeaders(request: PipelineRequest, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { ...JSON_HEADERS, ...extra, 'x-request-id': requestIdOf(request) };
}

/** The answer for an error (lambdas/core/errors.ts maps typed errors; only statuses under 500 show their messages). */
export function errorAnswer(request: PipelineRequest, error: unknown): APIGatewayProxyStructuredResultV2 {
  const { status, body, headers } = toErrorResponse(error);
  return { statusCode: status, headers: answerHeaders(request, headers), body: JSON.stringify(body) };
}

function isAnswer(value: unknown): value is APIGatewayProxyStructuredResultV2 {
  return typeof value === 'object' && value !== null && 'statusCode' in value && typeof value.statusCode === 'number';
}

/** The serialised answer, once the serialize or error step made one (the implementation's value before that). */
export function answerOf(request: PipelineRequest): APIGatewayProxyStructuredResultV2 | undefined {
  return isAnswer(request.response) ? request.response : undefined;
}
