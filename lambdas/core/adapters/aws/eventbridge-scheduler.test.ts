import { CreateScheduleCommand, DeleteScheduleCommand, SchedulerClient, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ScheduleExpressionError } from '../../schedule-expression.ts';
import { createEventBridgeScheduler } from './eventbridge-scheduler.ts';

const client = mockClient(SchedulerClient);
const scheduler = createEventBridgeScheduler(new SchedulerClient({ region: 'eu-west-2' }), {
  groupName: 'verity',
  targetArn: 'arn:aws:lambda:eu-west-2:123456789012:function:jobs',
  roleArn: 'arn:aws:iam::123456789012:role/scheduler',
});
const definition = { name: 'transfer-acme-1', expression: 'cron(0 2 * * ? *)', timezone: 'Europe/London', target: { job: 'transfer', input: { client: 'acme' } } };
const notFound = () => Object.assign(new Error('nope'), { name: 'ResourceNotFoundException' });

beforeEach(() => client.reset());

describe('EventBridge scheduler', () => {
  it('updates an existing schedule with the full target', async () => {
    client.on(UpdateScheduleCommand).resolves({});
    await scheduler.upsertSchedule(definition);
    expect(client.commandCalls(CreateScheduleCommand)).toHaveLength(0);
    expect(client.commandCalls(UpdateScheduleCommand)[0]?.args[0].input).toEqual({
      Name: 'transfer-acme-1',
      GroupName: 'verity',
      ScheduleExpression: 'cron(0 2 * * ? *)',
      ScheduleExpressionTimezone: 'Europe/London',
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      Target: {
        Arn: 'arn:aws:lambda:eu-west-2:123456789012:function:jobs',
        RoleArn: 'arn:aws:iam::123456789012:role/scheduler',
        Input: JSON.stringify({ job: 'transfer', input: { client: 'acme' } }),
      },
    });
  });

  it('creates the schedule when it does not exist, and updates when a concurrent create won', async () => {
    client.on(UpdateScheduleCommand).rejectsOnce(notFound()).resolves({});
    client.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn' });
    await scheduler.upsertSchedule(definition);
    expect(client.commandCalls(CreateScheduleCommand)).toHaveLength(1);

    client.reset();
    client.on(UpdateScheduleCommand).rejectsOnce(notFound()).resolves({});
    client.on(CreateScheduleCommand).rejects(Object.assign(new Error('exists'), { name: 'ConflictException' }));
    await scheduler.upsertSchedule(definition);
    expect(client.commandCalls(UpdateScheduleCommand)).toHaveLength(2);
  });

  it('refuses an invalid expression before calling AWS', async () => {
    await expect(scheduler.upsertSchedule({ ...definition, expression: 'every night' })).rejects.toThrow(ScheduleExpressionError);
    expect(client.calls()).toHaveLength(0);
  });

  it('deletes, treating a missing schedule as deleted, but passes other failures on', async () => {
    client.on(DeleteScheduleCommand).rejectsOnce(notFound()).rejectsOnce(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    await scheduler.deleteSchedule('gone');
    await expect(scheduler.deleteSchedule('x')).rejects.toThrow('denied');
    expect(client.commandCalls(DeleteScheduleCommand)[0]?.args[0].input).toEqual({ Name: 'gone', GroupName: 'verity' });
  });
});
