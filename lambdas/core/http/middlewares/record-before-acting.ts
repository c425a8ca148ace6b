import type { ActivityLog } from '../../ports/activity-log.ts';
import { activityEntry, ActivityNotRecordedError, openActivity, recordsBeforeActing } from '../activity.ts';
import { deviceOf, openDeviceCall } from '../device-activity.ts';
import { pipelineState, requestIdOf, required, type PipelineMiddleware } from './pipeline-state.ts';

/**
 * A call that changes something is on record before it acts (../activity.ts `recordsBeforeActing`): its record is
 * written `open`, the last step before the implementation, and closed with the outcome by ./record-activity.ts. A
 * record that cannot be written fails the call (500) before it acts, and is not attempted again.
 */
export function recordBeforeActing(log: ActivityLog): PipelineMiddleware {
  return {
    before: async (request) => {
      const state = pipelineState(request);
      const endpoint = required(state, 'endpoint');
      const principal = state.principal;
      if (principal === undefined || !recordsBeforeActing(endpoint)) return;
      const dependencies = required(state, 'dependencies');
      const startedAt = state.startedAtTime ?? dependencies.clock.now();
      const requestId = requestIdOf(request);
      try {
        if (principal.kind === 'device') {
          const facts = { event: request.event, endpoint, device: deviceOf(principal), error: undefined, startedAt };
          state.openedActivity = await openDeviceCall(log, dependencies, { facts, requestId });
        } else {
          const pathClient = state.input?.client;
          const { client, entry } = activityEntry({ event: request.event, endpoint, principal, access: state.access, error: undefined, startedAt, pathClient, query: state.input?.query });
          state.openedActivity = await openActivity(log, dependencies, { client, entry, requestId });
        }
      } catch (error) {
        if (error instanceof ActivityNotRecordedError) state.activityFailed = true;
        throw error;
      }
    },
  };
}
