import { createHash } from 'node:crypto';
import type { ScheduleDefinition } from '#core/ports/scheduler.ts';
import type { TransferConfigItem } from '#core/store/entities/transfer-config.ts';

/** The job a transfer schedule (and a run now) starts in the transfer jobs function (lambdas/transfer-jobs). */
export const TRANSFER_JOB = 'transfer';

/**
 * The schedule's name. A configuration reference is free text of up to 255 characters and a client up to 63, but an
 * EventBridge Scheduler name is at most 64 of `[0-9A-Za-z_.-]`: so the name is a digest of both (128 bits, so two
 * configurations never share one), and the schedule's input carries the readable tenant and reference.
 */
export function scheduleNameOf(client: string, configReference: string): string {
  return `transfer-${createHash('sha256').update(`${client}\n${configReference}`).digest('hex').slice(0, 32)}`;
}

/**
 * The schedule a configuration needs: one while it is active with a schedule expression, none otherwise (inactive,
 * or run on demand only). Expressions are read in UTC: the contract has no time zone field.
 */
export function scheduleOf(config: Pick<TransferConfigItem, 'client' | 'transfer_config_reference' | 'schedule' | 'is_active'>): ScheduleDefinition | undefined {
  if (!config.is_active || config.schedule === '') return undefined;
  return {
    name: scheduleNameOf(config.client, config.transfer_config_reference),
    expression: config.schedule,
    timezone: 'UTC',
    target: {
      job: TRANSFER_JOB,
      input: { client: config.client, transfer_config_reference: config.transfer_config_reference, trigger: 'schedule' },
    },
  };
}
