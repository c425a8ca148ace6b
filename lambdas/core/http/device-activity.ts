import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ulid } from 'ulid';
import type { DeviceActivity } from '#shared/contract/entities/activity.ts';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import { deviceOfIssuedToken, type DeviceCallPrincipal } from '../auth/device-token.ts';
import type { Dependencies } from '../dependencies.ts';
import { HttpError } from '../errors.ts';
import type { ActivityLog, ActivityRecordRef } from '../ports/activity-log.ts';
import { ActivityNotRecordedError } from './activity.ts';

const MAX_PARAMETER = 255;

/** The device a call is about: from a verified token, or from a token refused after its signature held. */
export interface DeviceCallFacts {
  event: APIGatewayProxyEventV2;
  endpoint: Endpoint;
  device: { client: string; deviceReference: string; deviceUserReference?: string; group?: string };
  /** Undefined while the call has not acted yet (the record written before a change). */
  statusCode?: number;
  error: unknown;
  startedAt: Date;
  endedAt?: Date;
}

/**
 * The DeviceActivity record of one device call. Parameters are the path's and the query's only (never a body: logs,
 * telemetry and alerts carry the device's data), each value bounded.
 */
export function deviceActivityEntry(facts: DeviceCallFacts): DeviceActivity {
  const parameters: Record<string, string> = {};
  for (const source of [facts.event.pathParameters, facts.event.queryStringParameters]) {
    for (const [name, value] of Object.entries(source ?? {})) {
      if (typeof value === 'string') parameters[name.slice(0, 64)] = value.slice(0, MAX_PARAMETER);
    }
  }
  const allowed = facts.statusCode === undefined || facts.statusCode < 400;
  const reason = facts.error instanceof HttpError && facts.error.expose ? facts.error.message : `HTTP ${String(facts.statusCode)}`;
  const ip = facts.event.requestContext?.http?.sourceIp;
  return {
    log_id: ulid(facts.startedAt.getTime()),
    ...(ip ? { device_ip: ip } : {}),
    device_reference: facts.device.deviceReference,
    ...(facts.device.deviceUserReference === undefined ? {} : { device_user_reference: facts.device.deviceUserReference }),
    ...(facts.device.group === undefined ? {} : { group: facts.device.group }),
    activity_time: facts.startedAt.toISOString(),
    ...(facts.endedAt === undefined
      ? {}
      : {
          activity_end_time: facts.endedAt.toISOString(),
          duration: Math.max(0, (facts.endedAt.getTime() - facts.startedAt.getTime()) / 1000),
        }),
    action: facts.endpoint.action,
    is_allowed: allowed,
    ...(allowed ? {} : { denial_reason: reason.slice(0, 500) }),
    parameters,
    ...(facts.statusCode === undefined ? {} : { status_code: facts.statusCode }),
  };
}

/** A device call's record, in the device's tenant, and the request it describes. */
export interface DeviceCallRecord {
  facts: DeviceCallFacts;
  requestId: string;
}

/**
 * Writes the device call's record in the device's tenant, as its own item (the audit trail: ../ports/activity-log.ts),
 * chained off the request path like user activity. `open` for a call about to change something (closed by
 * `recordDeviceCall`). Throws ActivityNotRecordedError: the pipeline then fails the call.
 */
export async function openDeviceCall(log: ActivityLog, deps: Dependencies, { facts, requestId }: DeviceCallRecord): Promise<ActivityRecordRef> {
  try {
    return await log.write(deps, { trail: 'device', client: facts.device.client, entry: deviceActivityEntry(facts), requestId, state: 'open' });
  } catch (error) {
    throw new ActivityNotRecordedError(error);
  }
}

/** The pipeline's hook: records the call with its outcome (or closes its open record). Throws ActivityNotRecordedError. */
export async function recordDeviceCall(
  log: ActivityLog,
  deps: Dependencies,
  { facts, requestId }: DeviceCallRecord,
  opened: ActivityRecordRef | undefined,
): Promise<void> {
  try {
    const entry = deviceActivityEntry(facts);
    if (opened === undefined) await log.write(deps, { trail: 'device', client: facts.device.client, entry, requestId });
    else await log.close(deps, opened, entry);
  } catch (error) {
    throw new ActivityNotRecordedError(error);
  }
}

/** The device facts of a verified device principal. */
export function deviceOf(principal: DeviceCallPrincipal): DeviceCallFacts['device'] {
  return {
    client: principal.client,
    deviceReference: principal.deviceReference,
    ...(principal.deviceUserReference === undefined ? {} : { deviceUserReference: principal.deviceUserReference }),
    ...(principal.group === undefined ? {} : { group: principal.group }),
  };
}

/**
 * The device of a successful authentication exchange (a public endpoint: no principal), from the token in its own
 * answer, so the exchange too is recorded as the device's activity.
 */
export function deviceOfAuthentication(endpoint: Endpoint, body: string | undefined, statusCode: number): DeviceCallFacts['device'] | undefined {
  if (endpoint.id !== 'device.authenticate' || statusCode !== 200 || body === undefined) return undefined;
  try {
    const principal = deviceOfIssuedToken((JSON.parse(body) as { access_token?: unknown }).access_token);
    return principal === undefined ? undefined : deviceOf(principal);
  } catch {
    return undefined;
  }
}
