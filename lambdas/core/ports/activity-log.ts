import type { ActivityTrail } from '../store/keys.ts';
import type { Clock } from './clock.ts';
import type { ItemKey, TableStore } from './table-store.ts';

/** Where a written record is, to close it later. */
export interface ActivityRecordRef {
  trail: ActivityTrail;
  client: string;
  key: ItemKey;
  logId: string;
}

/** One call's record as the HTTP pipeline hands it over (../http/activity.ts and ../http/device-activity.ts build it). */
export interface ActivityRecordWrite {
  trail: ActivityTrail;
  /** The tenant whose trail holds the record. */
  client: string;
  /** A UserActivity or DeviceActivity (by `trail`), as the contract declares it. */
  entry: unknown;
  /** The request the record describes (API Gateway's request id), to find its log lines. */
  requestId: string;
  /** `open`: written before the call acts, closed with its outcome by `close`. Unset: the record is complete. */
  state?: 'open';
}

/** What the log writes with: the table, and the clock for a record's write time. */
export type ActivityLogDependencies = { table: TableStore; clock: Clock };

/**
 * The audit trails as the HTTP pipeline writes them: one record per call (DESIGN.md §8). Implemented by the audit
 * area (lambdas/audit/trail/activity-log.ts) and handed to each API function's pipeline by its handler
 * (lambdas/api-recorders.ts), so core writes records without knowing how a trail is stored and chained.
 * Both throw when the record cannot be written: nothing is recorded best-effort, the pipeline then fails the call.
 */
export interface ActivityLog {
  write(deps: ActivityLogDependencies, record: ActivityRecordWrite): Promise<ActivityRecordRef>;
  /** Completes a record written `open` with the call's outcome (`finalEntry`, of the record's trail). */
  close(deps: ActivityLogDependencies, ref: ActivityRecordRef, finalEntry: unknown): Promise<void>;
}
