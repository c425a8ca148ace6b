import { Cron } from 'croner';
import type { Logger } from '../../logger.ts';
import type { ScheduleDefinition, Scheduler } from '../../ports/scheduler.ts';
import { parseScheduleExpression } from '../../schedule-expression.ts';

/** Runs a due job: the local server passes the jobs handler. */
export type JobRunner = (job: string, input: Record<string, unknown>) => Promise<void>;

export interface LocalScheduler extends Scheduler {
  /** Names and expressions of the active schedules. */
  list(): Array<Pick<ScheduleDefinition, 'name' | 'expression'>>;
  /** Stops every timer (server shutdown, test teardown). */
  stopAll(): void;
}

/**
 * The in-process stand-in for EventBridge Scheduler: the same definitions, run by croner (cron) or an interval
 * (rate). Timers are unreferenced so a schedule alone never keeps the process alive. A failing job is logged and the
 * schedule keeps going, as a scheduled Lambda invocation would.
 */
export function createLocalScheduler(options: { run: JobRunner; logger: Logger }): LocalScheduler {
  const active = new Map<string, { definition: ScheduleDefinition; stop: () => void }>();

  const fire = (definition: ScheduleDefinition) => {
    options.run(definition.target.job, definition.target.input).catch((error: unknown) => {
      options.logger.error('scheduled job failed', { schedule: definition.name, job: definition.target.job, error });
    });
  };

  return {
    async upsertSchedule(definition) {
      const parsed = parseScheduleExpression(definition.expression);
      active.get(definition.name)?.stop();
      let stop: () => void;
      if (parsed.kind === 'rate') {
        const timer = setInterval(() => fire(definition), parsed.everyMs);
        timer.unref();
        stop = () => clearInterval(timer);
      } else {
        const job = new Cron(
          parsed.pattern,
          { mode: '7-part', alternativeWeekdays: true, timezone: definition.timezone ?? 'UTC', unref: true },
          () => fire(definition),
        );
        stop = () => job.stop();
      }
      active.set(definition.name, { definition, stop });
    },
    async deleteSchedule(name) {
      active.get(name)?.stop();
      active.delete(name);
    },
    list() {
      return [...active.values()].map(({ definition }) => ({ name: definition.name, expression: definition.expression }));
    },
    stopAll() {
      for (const { stop } of active.values()) stop();
      active.clear();
    },
  };
}
