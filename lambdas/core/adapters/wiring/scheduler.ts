import { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { Config } from '../../config.ts';
import type { PortAdapter } from '../../dependencies.ts';
import type { Scheduler } from '../../ports/scheduler.ts';
import { createEventBridgeScheduler } from '../aws/eventbridge-scheduler.ts';
import { createLocalScheduleStore, localScheduleFile } from '../local/local-scheduler.ts';

/**
 * Schedules: EventBridge Scheduler in AWS; locally the schedule file under DATA_DIR, which the local stack's jobs
 * (scripts/local/jobs.ts) run with croner and read again on every start.
 */
export const schedulerAdapter: PortAdapter<'scheduler'> = {
  port: 'scheduler',
  build: ({ config }) =>
    config.VERITY_MODE === 'local' && config.DATA_DIR !== undefined
      ? createLocalScheduleStore(localScheduleFile(config.DATA_DIR))
      : eventBridgeScheduler(config),
};

/** EventBridge Scheduler needs its group, target and role; a missing one fails on first use, naming the variable. */
function eventBridgeScheduler(config: Config): Scheduler {
  const { SCHEDULE_GROUP: groupName, SCHEDULER_TARGET_ARN: targetArn, SCHEDULER_ROLE_ARN: roleArn } = config;
  if (groupName && targetArn && roleArn) {
    return createEventBridgeScheduler(new SchedulerClient({ region: config.AWS_REGION }), { groupName, targetArn, roleArn });
  }
  const missing = ['SCHEDULE_GROUP', 'SCHEDULER_TARGET_ARN', 'SCHEDULER_ROLE_ARN'].filter((name) => !config[name as keyof Config]);
  const refuse = () => Promise.reject(new Error(`Scheduler not configured: ${missing.join(', ')} missing`));
  return { upsertSchedule: refuse, deleteSchedule: refuse };
}
