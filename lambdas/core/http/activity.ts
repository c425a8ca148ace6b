import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { callAction, type Endpoint } from '#shared/contract/endpoint.ts';
import type { AccessContext } from '../auth/access/access-context.ts';
import { actorOf, actorRecordOf } from '../auth/actor.ts';
import type { UserActivity } from '#shared/contract/entities/activity.ts';
import type { ClientAppPrincipal, UserPrincipal } from '../auth/principal.ts';
import type { Dependencies } from '../dependencies.ts';
import type { ActivityLog, ActivityRecordRef } from '../ports/activity-log.ts';
import { ForbiddenError, InternalError } from '../errors.ts';

/** One authenticated call, as the HTTP stack reports it; the log assigns `log_id`. */
export type UserActivityEntry = Omit<UserActivity, 'log_id'>;

/** Bounds on what a caller can make us store: header and path values are theirs to choose. */
const MAX_BROWSER = 512;
const MAX_PARAMETER = 255;

export interface ActivityFacts {
  event: APIGatewayProxyEventV2;
  endpoint: Endpoint;
  principal: UserPrincipal | ClientAppPrincipal;
  access: AccessContext | undefined;
  /** Undefined while the call has not acted yet (the record written before a change: `openActivity`). */
  statusCode?: number;
  error: unknown;
  startedAt: Date;
  endedAt?: Date;
  /** The path's `{client}`. */
  pathClient: string | undefined;
  /** The parsed query, when it parsed: an endpoint may choose its action by it (`callAction`). */
  query?: unknown;
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
    // One stable reference per actor, as every other record names them (../auth/actor.ts), and the actor as named then.
    user_id: actorOf(principal),
    actor: actorRecordOf(principal),
    ...(event.requestContext?.http?.sourceIp ? { user_ip: event.requestContext.http.sourceIp } : {}),
    ...(browser ? { browser: browser.slice(0, MAX_BROWSER) } : {}),
    roles: [...roles],
    action: callAction(endpoint, facts.query),
    is_allowed: !denied,
    ...(denied ? { denial_reason: (facts.error as ForbiddenError).message } : {}),
    ...(facts.statusCode === undefined ? {} : { status_code: facts.statusCode }),
    activity_time: facts.startedAt.toISOString(),
    ...(facts.endedAt === undefined
      ? {}
      : {
          activity_end_time: facts.endedAt.toISOString(),
          duration: Math.max(0, (facts.endedAt.getTime() - facts.startedAt.getTime()) / 1000),
        }),
    parameters,
    ...(supportReference === undefined ? {} : { support_reference: supportReference }),
    is_client_app: principal.kind === 'client-app',
  };
  return { client, entry };
}

/**
 * Where the record goes (docs/decisions.md, "Audit trail"): a call that only reads is recorded after it read and
 * before it answers, so if the record cannot be written the answer (the read's only effect) is withheld. A call that
 * changes something (any method but GET) is recorded BEFORE it acts, `open`, and closed with its outcome before it
 * answers: a change whose record cannot be written never happens.
 */
export const recordsBeforeActing = (endpoint: Endpoint): boolean => endpoint.method !== 'GET';

/** The call's record could not be written: the call fails (500) rather than act or answer unrecorded. */
export class ActivityNotRecordedError extends InternalError {
  constructor(cause: unknown) {
    super('Activity not recorded', { cause });
  }
}

/** A user call's record, the tenant whose log holds it, and the request it describes. */
export interface UserCallRecord {
  client: string;
  entry: UserActivityEntry;
  requestId: string;
}

/** Writes the record of a call about to act (open, its outcome to come) to the log. Throws ActivityNotRecordedError. */
export async function openActivity(log: ActivityLog, dependencies: Dependencies, { client, entry, requestId }: UserCallRecord): Promise<ActivityRecordRef> {
  try {
    return await log.write(dependencies, { trail: 'user', client, entry, requestId, state: 'open' });
  } catch (error) {
    throw new ActivityNotRecordedError(error);
  }
}

/**
 * Writes the call's record (or closes the one opened before it acted) with its outcome. Throws
 * ActivityNotRecordedError: nothing is recorded best-effort, so the caller fails the call.
 */
export async function recordActivity(
  log: ActivityLog,
  dependencies: Dependencies,
  { client, entry, requestId }: UserCallRecord,
  opened: ActivityRecordRef | undefined,
): Promise<void> {
  try {
    if (opened === undefined) await log.write(dependencies, { trail: 'user', client, entry, requestId });
    else await log.close(dependencies, opened, entry);
  } catch (error) {
    throw new ActivityNotRecordedError(error);
  }
}
