import type { ActivityLog } from '../../ports/activity-log.ts';
import { activityEntry, recordActivity as writeActivity } from '../activity.ts';
import { deviceOf, deviceOfAuthentication, recordDeviceCall as writeDeviceCall } from '../device-activity.ts';
import { answerOf, errorAnswer } from './answer.ts';
import { pipelineState, requestIdOf, required, type PipelineMiddleware, type PipelineRequest, type PipelineState } from './pipeline-state.ts';

/**
 * One activity record per authenticated call, allowed or refused, once its status is known (DESIGN.md §8), written
 * by the call itself to the function's activity log (../../ports/activity-log.ts; a change's record was opened before it acted by
 * ./record-before-acting.ts and is closed here). Registered right after the request log, so its `after` sees the
 * serialised answer and its `onError` the error answer. Nothing is recorded best-effort: a record that cannot be
 * written turns the answer into a 500 (from `after` by throwing; from `onError` by replacing the answer).
 */
export function recordActivity(log: ActivityLog): PipelineMiddleware {
  return {
    after: (request) => record(log, request),
    onError: async (request) => {
      try {
        await record(log, request);
      } catch (error) {
        request.error = error instanceof Error ? error : new Error(String(error));
        request.response = errorAnswer(request, error);
      }
    },
  };
}

async function record(log: ActivityLog, request: PipelineRequest): Promise<void> {
  const state = pipelineState(request);
  if (state.activityFailed) return;
  try {
    if (await recordDeviceCall(log, request, state)) return;
    const { principal, endpoint } = state;
    if (principal === undefined || principal.kind === 'device' || endpoint === undefined) return;
    const dependencies = required(state, 'dependencies');
    const { client, entry } = activityEntry({
      event: request.event,
      endpoint,
      principal,
      access: state.access,
      statusCode: answerOf(request)?.statusCode ?? 500,
      error: request.error ?? undefined,
      startedAt: state.startedAtTime ?? dependencies.clock.now(),
      endedAt: dependencies.clock.now(),
      pathClient: state.input?.client,
      query: state.input?.query,
    });
    await writeActivity(log, dependencies, { client, entry, requestId: requestIdOf(request) }, state.openedActivity);
  } catch (error) {
    state.activityFailed = true;
    throw error;
  }
}

/**
 * Device calls are DeviceActivity (../device-activity.ts), allowed or refused once the token
 * was read, and so is a successful device authentication exchange (the device named by the token it was given).
 * Says whether the call was a device's.
 */
async function recordDeviceCall(log: ActivityLog, request: PipelineRequest, state: PipelineState): Promise<boolean> {
  const endpoint = state.endpoint;
  if (endpoint === undefined) return false;
  const answer = answerOf(request);
  const statusCode = answer?.statusCode ?? 500;
  const device =
    state.principal?.kind === 'device' ? deviceOf(state.principal) : (state.refusedDevice ?? deviceOfAuthentication(endpoint, answer?.body, statusCode));
  if (device === undefined) return false;
  const dependencies = required(state, 'dependencies');
  const facts = { event: request.event, endpoint, device, statusCode, error: request.error };
  const times = { startedAt: state.startedAtTime ?? dependencies.clock.now(), endedAt: dependencies.clock.now() };
  await writeDeviceCall(log, dependencies, { facts: { ...facts, ...times }, requestId: requestIdOf(request) }, state.openedActivity);
  return true;
}
