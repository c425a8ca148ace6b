import type { Dependencies } from '#core/dependencies.ts';
import { retentionJob } from '../../../lambdas/account-data/retention/retention-job.ts';

/**
 * The retention job run for one tenant to its end as of `now` (a time the test moves forward to make records due):
 * each continuation the job would start is run here, in turn, instead of being started.
 */
export async function retentionRunTo(deps: Dependencies, client: string, now: string): Promise<void> {
  let next: Record<string, unknown> | undefined = { client, now };
  while (next !== undefined) {
    const starts: Array<Record<string, unknown>> = [];
    await retentionJob({ ...deps, jobs: { start: async (_job, input) => void starts.push(input) } }, next);
    next = starts[0];
  }
}
