import type { Dependencies } from '#core/dependencies.ts';
import { sweepUnsettledPayloads } from '../payloads/public.ts';

/**
 * Job `payload-sweep`: re-runs the processing of payloads left unsettled (Recorded, Uploaded, Scanning, or an object
 * with no registration) past their due time, and alerts those that cannot move on (lambdas/payloads/processing/sweep.ts).
 * Scheduled every 15 minutes (lib/config/job-schedules.ts).
 */
export async function payloadSweepJob(dependencies: Dependencies, input: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  void input;
  return { ...(await sweepUnsettledPayloads(dependencies)) };
}
