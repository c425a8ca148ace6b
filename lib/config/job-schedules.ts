import type { ScheduleDefinition } from '#core/ports/scheduler.ts';

/**
 * The platform's fixed recurring jobs, as data: the jobs stack turns each into an EventBridge Scheduler
 * schedule invoking the jobs function with `{ job, input }` (the schedule's `target`). Tenant-defined
 * schedules (transfers) are created at run time through the Scheduler port, in their own group, and invoke the
 * transfer jobs function.
 *
 * An empty list is valid: the stack then deploys the schedule group and role only.
 */
export const PLATFORM_SCHEDULES: readonly ScheduleDefinition[] = [
  {
    name: 'support-access-expiry',
    // Approval expiry is minute-precise in the UI; a quarter hour bounds how long expired access lingers.
    expression: 'rate(15 minutes)',
    target: { job: 'support-access-expiry', input: {} },
  },
  {
    name: 'device-deactivation',
    // Once a day, off-peak: deactivation compares last_seen against a threshold measured in days.
    expression: 'cron(15 3 * * ? *)',
    timezone: 'UTC',
    target: { job: 'device-deactivation', input: {} },
  },
  {
    name: 'alerts-expiry',
    // Alert expiry is given in minutes or more; five minutes bounds how long an expired alert stays Triggered.
    expression: 'rate(5 minutes)',
    target: { job: 'alerts-expiry', input: {} },
  },
  {
    name: 'payload-sweep',
    // A payload marker is first due 15 minutes after registration (lambdas/payloads/processing/sweep.ts): as often as that.
    expression: 'rate(15 minutes)',
    target: { job: 'payload-sweep', input: {} },
  },
  {
    name: 'job-sweep',
    // A long job's lease is its 4-minute budget and 90 s (lambdas/jobs/running-jobs.ts): a dead invocation's job is
    // resumed within five minutes of its lease running out.
    expression: 'rate(5 minutes)',
    target: { job: 'job-sweep', input: {} },
  },
  {
    name: 'audit-sequencer',
    // Links what the Streams trigger left waiting and signs each trail's head: a rewrite shows within five minutes.
    expression: 'rate(5 minutes)',
    target: { job: 'audit-sequencer', input: {} },
  },
  {
    name: 'retention',
    // Periods are whole days; once a day, off-peak, after the inactivity job. A run longer than its Lambda continues
    // itself (lambdas/account-data/retention/retention-job.ts).
    expression: 'cron(45 3 * * ? *)',
    timezone: 'UTC',
    target: { job: 'retention', input: {} },
  },
  {
    name: 'supervision-deadlines',
    // Deadlines are whole days from raising; hourly tells of a missed one within the hour without re-raising often.
    expression: 'rate(1 hour)',
    target: { job: 'supervision-deadlines', input: {} },
  },
  {
    name: 'supervision-daily',
    // "At least N per person per day" looks at a whole day: once a day for yesterday (UTC), after the day's late uploads
    // had a few hours to arrive and be processed.
    expression: 'cron(30 4 * * ? *)',
    timezone: 'UTC',
    target: { job: 'supervision-daily', input: {} },
  },
  {
    name: 'completeness-sweep',
    // Grace and silent hours are whole hours (1 at least): hourly moves an entry to Missing, or tells of a silent
    // phone, within the hour after it is due.
    expression: 'rate(1 hour)',
    target: { job: 'completeness-sweep', input: {} },
  },
  {
    name: 'fixity',
    // Once a day, off-peak, after retention has disposed of what it will: each run reads about one cycle-day's share of
    // the stored recordings in full (lambdas/integrity/fixity/fixity-job.ts), so the whole store is read once a cycle.
    expression: 'cron(15 5 * * ? *)',
    timezone: 'UTC',
    target: { job: 'fixity', input: {} },
  },
];

const EXPRESSION = /^(rate\(\d+ (minute|minutes|hour|hours|day|days)\)|cron\(\S+ \S+ \S+ \S+ \S+ \S+\))$/;
const NAME = /^[0-9a-zA-Z_.-]{1,64}$/;

/** Refuses malformed or duplicate definitions at synth time rather than at deploy time. */
export function checkSchedules(schedules: readonly ScheduleDefinition[]): void {
  const seen = new Set<string>();
  for (const schedule of schedules) {
    if (!NAME.test(schedule.name)) throw new Error(`schedule "${schedule.name}": name must be 1-64 of letters, digits, - _ .`);
    if (!EXPRESSION.test(schedule.expression)) throw new Error(`schedule "${schedule.name}": "${schedule.expression}" is not a rate() or cron() expression`);
    if (seen.has(schedule.name)) throw new Error(`schedule "${schedule.name}" is defined twice`);
    seen.add(schedule.name);
  }
}
