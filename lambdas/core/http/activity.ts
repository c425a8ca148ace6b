import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import type { AccessContext } from '../access/access-context.ts';
import { recordUserActivity, type UserActivityEntry } from '../audit/record-user-activity.ts';
import type { ClientAppPrincipal, UserPrincipal } from '../auth/principal.ts';
import type { Dependencies } from '../dependencies.ts';
import { ForbiddenError } from '../errors.ts';

/** Bounds on what a caller can make us store: header and path values are theirs to choose. */
const MAX_BROWSER = 512;
const MAX_PARAMETER = 255;

export interface ActivityFacts {
  event: APIGatewayProxyEventV2;
  endpoint: Endpoint;
  principal: UserPrincipal | ClientAppPrincipal;
  access: AccessContext | undefined;
  statusCode: number;
  error: unknown;
  startedAt: Date;
  endedAt: Date;
  /** The path's `{client}`. */
  pathClient: string | undefined;
}

/**
 * The user-activity record of one authenticated call, and the tenant whose log holds it: the tenant acted in for
 * support mode (the tenant sees what staff did there, refused attempts included), else the caller's own client
 * (staff on the internal console: `admin`; a tenant token refused on another tenant's path stays in its own log).
 * Parameters are the path's only: never a body, a query or a token.
 */
export function activityEntry(facts: ActivityFacts): { client: string; entry: UserActivityEntry } {
  const { event, endpoint, principal, access } = facts;
  const supportReference = principal.kind === 'user' ? principal.supportReference : undefined;
  const client = supportReference !== undefined && facts.pathClient !== undefined ? facts.pathClient : principal.client;
  const denied = facts.error instanceof ForbiddenError;
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.pathParameters ?? {})) {
    if (typeof value === 'string') parameters[name] = value.slice(0, MAX_PARAMETER);
  }
  const browser = event.requestContext?.http?.userAgent || event.headers?.['user-agent'];
  const roles = access?.roleReferences ?? (principal.kind === 'user' ? principal.groups : principal.roles);
  const entry: UserActivityEntry = {
    user_id: principal.kind === 'client-app' ? principal.appReference : principal.subject,
    ...(event.requestContext?.http?.sourceIp ? { user_ip: event.requestContext.http.sourceIp } : {}),
    ...(browser ? { browser: browser.slice(0, MAX_BROWSER) } : {}),
    roles: [...roles],
    action: endpoint.action,
    is_allowed: !denied,
    ...(denied ? { denial_reason: (facts.error as ForbiddenError).message } : {}),
    status_code: facts.statusCode,
    activity_time: facts.startedAt.toISOString(),
    activity_end_time: facts.endedAt.toISOString(),
    duration: Math.max(0, (facts.endedAt.getTime() - facts.startedAt.getTime()) / 1000),
    parameters,
    ...(supportReference === undefined ? {} : { support_reference: supportReference }),
    is_client_app: principal.kind === 'client-app',
  };
  return { client, entry };
}

/** Records the entry; a fault is logged with the request id and never fails the call it describes. */
export async function recordActivitySafely(
  dependencies: Dependencies,
  client: string,
  entry: UserActivityEntry,
  requestId: string,
): Promise<void> {
  try {
    await recordUserActivity(dependencies, client, entry, { requestId });
  } catch (error) {
    dependencies.logger.error('user activity not recorded', { request_id: requestId, client, action: entry.action, error });
  }
}
