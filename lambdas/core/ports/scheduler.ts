/**
 * A recurring job: EventBridge Scheduler in AWS, the in-process scheduler locally. Both read the same definition.
 * `expression` is EventBridge syntax: `rate(N minutes|hours|days)` or `cron(min hour day-of-month month
 * day-of-week year)`.
 */
export interface ScheduleDefinition {
  /** Unique per schedule; letters, digits, `-`, `_` and `.` (EventBridge's rule), e.g. `transfer-acme-01J…`. */
  name: string;
  expression: string;
  /** IANA time zone the cron expression is read in; UTC when omitted. */
  timezone?: string;
  /** Which job runs (a name the jobs function dispatches on) and with what input. */
  target: { job: string; input: Record<string, unknown> };
}

/** Creates, replaces and deletes schedules. */
export interface Scheduler {
  /** Creates the schedule or replaces the one with the same name. */
  upsertSchedule(schedule: ScheduleDefinition): Promise<void>;
  /** Deletes it; deleting a schedule that does not exist is not an error. */
  deleteSchedule(name: string): Promise<void>;
}
