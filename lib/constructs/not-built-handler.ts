/**
 * Deployed in place of `lambdas/<group>/handler.ts` while that group is not written yet, so every declared
 * route answers (501, naming the route) instead of failing the deployment or answering 404.
 * Self-contained on purpose: it must bundle without the rest of the code base.
 */
interface HttpApiEvent {
  readonly routeKey?: string;
}

export async function handler(event: HttpApiEvent): Promise<{ statusCode: number; headers: Record<string, string>; body: string }> {
  // The route key is the contract's own `METHOD fullPath`; never echo the raw request path.
  const route = typeof event.routeKey === 'string' && event.routeKey.length <= 300 ? event.routeKey : 'This endpoint';
  const message = `${route} is not implemented yet`;
  // Same body shape as lambdas/core/errors.ts `toErrorResponse` for a NotImplementedError.
  return {
    statusCode: 501,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    body: JSON.stringify({ error_code: 501, message, errors: [message] }),
  };
}
