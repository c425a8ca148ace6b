import type { UserActivity } from '#shared/contract/entities/activity.ts';
import type { Dependencies } from '../dependencies.ts';
import { appendUserActivity } from './append-activity.ts';

/** One authenticated call, as the HTTP stack reports it; the log assigns `log_id` and the chain fields. */
export type UserActivityEntry = Omit<UserActivity, 'log_id'>;

/** Optional context of the call being recorded. */
export interface RecordOptions {
  /** The request id (API Gateway's): stored in the record and named in the log line if recording fails. */
  requestId?: string;
}

/**
 * Appends one record to the tenant's user-activity log (DESIGN.md §8: append-only, hash-chained per tenant; see
 * `appendUserActivity`). Called by the HTTP stack after every authenticated call, allowed or denied. Never throws:
 * the call's own work is done, so a logging fault is logged as an error with the request id and swallowed.
 */
export async function recordUserActivity(
  dependencies: Dependencies,
  client: string,
  entry: UserActivityEntry,
  options: RecordOptions = {},
): Promise<void> {
  try {
    await appendUserActivity(dependencies, client, entry, options.requestId === undefined ? {} : { requestId: options.requestId });
  } catch (error) {
    try {
      dependencies.logger.error('user activity not recorded', {
        request_id: options.requestId ?? 'unknown',
        client,
        action: typeof entry?.action === 'string' ? entry.action : undefined,
        error,
      });
    } catch {
      // A broken logger must not turn a finished call into a failed one either.
    }
  }
}
