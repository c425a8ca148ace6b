import { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { Config } from '../../config.ts';
import type { PortAdapter } from '../../dependencies.ts';
import type { Scheduler } from '../../ports/scheduler.ts';
import { createEventBridgeScheduler } from '../aws/eventbridge-scheduler.ts';
import { createLocalScheduler } from '../local/local-scheduler.ts';

/**
 * Schedules: EventBridge Scheduler in AWS, croner in this process locally. Until the jobs exist, a due local schedule
 * is only logged; the local server may pass its own scheduler.
 */
export const schedulerAdapter: PortAdapter<'scheduler'> = {
  port: 'scheduler',
  build: ({ config, logger }) =>
    config.VERITY_MODE === 'local'
      ? createLocalScheduler({
          logger,
          run: async (job, input) => logger.info('scheduled job due (no job runner yet)', { job, input_keys: Object.keys(input) }),
        })
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
