import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Cron } from 'croner';
import * as z from 'zod';
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
          { mode: '7-part', alternativeWeekdays: true, sloppyRanges: true, timezone: definition.timezone ?? 'UTC', unref: true },
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

/** Where the local stack keeps the schedules made through the Scheduler port: `<DATA_DIR>/schedules.json`. */
export function localScheduleFile(dataDir: string): string {
  return join(dataDir, 'schedules.json');
}

const ScheduleFile = z.object({
  schedules: z.record(
    z.string(),
    z.object({
      name: z.string(),
      expression: z.string(),
      timezone: z.string().optional(),
      target: z.object({ job: z.string(), input: z.record(z.string(), z.unknown()) }),
    }),
  ),
});

/** The schedules kept in `file` (none when it does not exist yet). A file that does not parse is an error, never an empty list. */
export function readScheduleFile(file: string): ScheduleDefinition[] {
  if (!existsSync(file)) return [];
  const parsed = ScheduleFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a schedule file: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  return Object.values(parsed.data.schedules);
}

/** How often a runner looks for changes made to the schedule file by another process. */
const FILE_POLL_MS = 2000;

/** Runners in this process that follow a schedule file (the local stack's jobs), told after each change. */
const fileListeners = new Map<string, Set<() => void>>();
/** One write at a time per file in this process, so two changes never read the same old content. */
const fileWrites = new Map<string, Promise<void>>();

/**
 * The Scheduler port of the local stack, as EventBridge Scheduler's API is in AWS: it only keeps the definitions, in
 * a JSON file (written whole to a temporary name, then renamed over the old one), and tells the runners following
 * that file (`followScheduleFile`). The schedules therefore outlive a restart of `npm start`, as a deployed stage's do.
 */
export function createLocalScheduleStore(file: string): Scheduler {
  const change = (edit: (schedules: Record<string, ScheduleDefinition>) => void) => {
    const write = (fileWrites.get(file) ?? Promise.resolve()).then(async () => {
      const schedules = Object.fromEntries(readScheduleFile(file).map((schedule) => [schedule.name, schedule]));
      edit(schedules);
      await mkdir(dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify({ schedules }, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, file);
    });
    fileWrites.set(
      file,
      write.catch(() => undefined),
    );
    return write.then(() => {
      for (const listener of fileListeners.get(file) ?? []) listener();
    });
  };
  return {
    async upsertSchedule(definition) {
      // Refused here as EventBridge refuses it, not later when a runner reads the file.
      parseScheduleExpression(definition.expression);
      await change((schedules) => {
        schedules[definition.name] = definition;
      });
    },
    async deleteSchedule(name) {
      await change((schedules) => {
        delete schedules[name];
      });
    },
  };
}

/** What tells one version of the file from the next: a rename (how the store writes) changes the inode. */
function fileSignature(file: string): string {
  try {
    const stats = statSync(file);
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/**
 * Runs the schedules of `file` on `scheduler` and keeps them in step with it: now (a restart fires what was made
 * before it), at once after every change through `createLocalScheduleStore` in this process, and within a few
 * seconds after a change by another process (`npm run job`, a script), seen by polling the file's modification time.
 * Only the names that came from the file are removed when they leave it; other schedules on the same scheduler (the
 * platform's) stay.
 */
export async function followScheduleFile(file: string, scheduler: LocalScheduler, logger: Logger): Promise<{ stop(): void }> {
  const fromFile = new Map<string, string>();
  let syncing = Promise.resolve();
  const sync = async () => {
    const wanted = readScheduleFile(file);
    const names = new Set(wanted.map((schedule) => schedule.name));
    for (const name of [...fromFile.keys()].filter((known) => !names.has(known))) {
      await scheduler.deleteSchedule(name);
      fromFile.delete(name);
    }
    for (const schedule of wanted) {
      const fingerprint = JSON.stringify(schedule);
      if (fromFile.get(schedule.name) === fingerprint) continue;
      try {
        await scheduler.upsertSchedule(schedule);
        fromFile.set(schedule.name, fingerprint);
      } catch (error) {
        logger.error('schedule in the schedule file not run', { schedule: schedule.name, error: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  const listener = () => {
    syncing = syncing.then(sync).catch((error: unknown) => logger.error('schedule file not read', { file, error: error instanceof Error ? error.message : String(error) }));
  };
  // Taken before the first read, so a change made while following starts is never mistaken for the baseline (Node's
  // own watchFile takes its first stat later, on the thread pool, and missed a write made right after start).
  let seen = fileSignature(file);
  await sync();
  const listeners = fileListeners.get(file) ?? new Set();
  listeners.add(listener);
  fileListeners.set(file, listeners);
  const poll = setInterval(() => {
    const now = fileSignature(file);
    if (now === seen) return;
    seen = now;
    listener();
  }, FILE_POLL_MS);
  // Unreferenced: the poll alone never keeps the process alive.
  poll.unref();
  return {
    stop() {
      clearInterval(poll);
      listeners.delete(listener);
      for (const name of fromFile.keys()) void scheduler.deleteSchedule(name);
      fromFile.clear();
    },
  };
}
