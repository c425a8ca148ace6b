import type { ItemKey } from '../../ports/table-store.ts';
import { ENTITY, list, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';

const runningPartition = (client: string) => `${tenantPrefix(client)}RUNNING_JOBS`;

/**
 * Long jobs that are running (lambdas/jobs/running-jobs.ts): one small marker per job from its start to its end, in
 * the tenant's `RUNNING_JOBS` partition under `JOB#<kind>#<id>`, and on gsi1 in a partition of the same name by the
 * time its lease runs out. The job-sweep reads only the markers whose lease has run out (a key range up to now: a
 * Query, never a Scan); a scheduled transfer reads its tenant's running transfers (a prefix of a small partition).
 */
export const jobsKeys = {
  runningJob: {
    item: (client: string, kind: string, id: string, leaseUntil: Date | string): ItemKeys => ({
      ...jobsKeys.runningJob.key(client, kind, id),
      entity: ENTITY.runningJob,
      gsi1pk: runningPartition(client),
      gsi1sk: timeSort(leaseUntil, `${kind}#${id}`),
    }),
    key: (client: string, kind: string, id: string): ItemKey => ({ pk: runningPartition(client), sk: `JOB#${part(kind)}#${part(id)}` }),
    /** The tenant's running jobs of one kind. */
    list: (client: string, kind: string): ListKey => ({ partition: runningPartition(client), sort: { beginsWith: `JOB#${part(kind)}#` } }),
    /** The tenant's running jobs by the time their lease runs out, soonest first. */
    listByLease: (client: string): ListKey => list('gsi1', runningPartition(client)),
  },
};
