import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import type { ScheduleDefinition, Scheduler } from '../../ports/scheduler.ts';
import { parseScheduleExpression } from '../../schedule-expression.ts';

export interface EventBridgeSchedulerOptions {
  groupName: string;
  /** The jobs function every schedule invokes; it dispatches on `job`. */
  targetArn: string;
  /** The role EventBridge Scheduler assumes to invoke the target. */
  roleArn: string;
}

const errorName = (error: unknown) => (error as { name?: string } | null)?.name;

/**
 * Scheduler on EventBridge Scheduler. Upsert is Update, then Create when the schedule does not exist yet (and
 * Update again if a concurrent Create won the race). The expression is checked first with the same parser the local
 * scheduler uses.
 */
export function createEventBridgeScheduler(client: SchedulerClient, options: EventBridgeSchedulerOptions): Scheduler {
  const input = (schedule: ScheduleDefinition): CreateScheduleCommandInput => ({
    Name: schedule.name,
    GroupName: options.groupName,
    ScheduleExpression: schedule.expression,
    ScheduleExpressionTimezone: schedule.timezone ?? 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' },
    State: 'ENABLED',
    Target: {
      Arn: options.targetArn,
      RoleArn: options.roleArn,
      Input: JSON.stringify({ job: schedule.target.job, input: schedule.target.input }),
    },
  });

  return {
    async upsertSchedule(schedule) {
      parseScheduleExpression(schedule.expression);
      try {
        await client.send(new UpdateScheduleCommand(input(schedule)));
        return;
      } catch (error) {
        if (errorName(error) !== 'ResourceNotFoundException') throw error;
      }
      try {
        await client.send(new CreateScheduleCommand(input(schedule)));
      } catch (error) {
        if (errorName(error) !== 'ConflictException') throw error;
        await client.send(new UpdateScheduleCommand(input(schedule)));
      }
    },
    async deleteSchedule(name) {
      try {
        await client.send(new DeleteScheduleCommand({ Name: name, GroupName: options.groupName }));
      } catch (error) {
        if (errorName(error) !== 'ResourceNotFoundException') throw error;
      }
    },
  };
}
