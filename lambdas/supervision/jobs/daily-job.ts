import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { jobActor } from '#core/auth/actor.ts';
import { allClients } from '#core/store/all-clients.ts';
import { readPayload, type PayloadItem } from '#core/store/entities/payload.ts';
import type { SupervisionPolicyItem } from '#core/store/entities/supervision-policy.ts';
import { keys } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { ClientId } from '#shared/contract/fields.ts';
import { endTrackedJob, renewTrackedJob, type TrackedJob } from '../../jobs/public.ts';
import type { SupervisionHit } from '#shared/contract/entities/supervision.ts';
import { isSampled, topUpChoice } from '#shared/supervision/sampling.ts';
import { recordHits } from '../items/record-hits.ts';
import { supervisedRecordingOf } from '../evaluation/at-processing.ts';
import { isSamplingType, sampleValueOf } from '../evaluation/evaluate-recording.ts';
import { tenantPolicies } from '../evaluation/policy-set.ts';
import { groupFactsCache, policyCovers } from '../policies/policy-scope.ts';

/**
 * The `supervision-daily` job (scheduled daily; `npm run job -- supervision-daily [--client <c>] [--input
 * '{"day":"2026-01-31"}']`): "at least N per person per day" for every enabled Sampling policy with a minimum. For the
 * day (yesterday, UTC, unless given), for each device user of the tenant (a Query on the tenant's device-user list),
 * it reads that person's recordings of the day (a Query on the payloads-by-device-user index and the day's time
 * range, never a Scan), and where fewer than the minimum of those the policy covers were sampled by its share, raises
 * the unsampled ones with the lowest sample values, as many as are missing (shared/supervision/sampling.ts
 * `topUpChoice`: reproducible, ties by reference). The hit says it is a top-up and carries its value. Run again, it
 * chooses the same recordings and adds nothing (recordHits keeps one hit per policy on an item). After JOB_RUN_MS it
 * starts itself again from the device-user page it reached.
 *
 * A long job the job-sweep watches (lambdas/jobs/running-jobs.ts): the run keeps one running-job marker (id: the day)
 * in the tenant it is walking, its input the position a resumption starts from (the tenant and its device-user page,
 * or the tenant it finished), renewed with every page. Entering the next tenant writes that tenant's marker before
 * removing the last one's, and the run's end removes its last, so a run whose invocation died at any point is resumed
 * by the sweep from where it was, through the tenants after it.
 */
export const SUPERVISION_DAILY_JOB = 'supervision-daily';
const JOB_RUN_MS = 4 * 60_000;
/** Device users per page: each is one Query of their day. */
const USERS_PAGE = 50;
const DAY_MS = 86_400_000;

export const DAILY_ACTOR = jobActor(SUPERVISION_DAILY_JOB);

export const SupervisionDailyInput = z.object({
  client: ClientId.optional(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  /** Where the last run stopped: the tenant, and the position in its device-user list. */
  at: ClientId.optional(),
  start_key: z.record(z.string(), z.string()).optional(),
  /** The last tenant the last run finished. */
  after: ClientId.optional(),
  topped_up: z.int().min(0).default(0),
});

export type DailyDependencies = Pick<Dependencies, 'table' | 'clock' | 'jobs' | 'config'>;

/** The run's marker in `tenant`, with the input that resumes the run from there. */
function trackedDaily(tenant: string, day: string, input: Record<string, unknown>): TrackedJob {
  return { client: tenant, kind: 'supervision-daily', id: day, job: SUPERVISION_DAILY_JOB, input };
}

export interface DailyBudget {
  until?: Date;
  pages?: number;
}

/** Yesterday (UTC) of `now`, as YYYY-MM-DD. */
export function yesterdayOf(now: Date): string {
  return new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
}

/** A person's Processed recordings of the day, of the types sampling reads. */
async function recordingsOfDay(deps: DailyDependencies, tenant: string, deviceUser: string, day: string): Promise<PayloadItem[]> {
  const recordings: PayloadItem[] = [];
  const query = { ...keys.payload.listByDeviceUser(tenant, deviceUser), sort: { between: [`${day}T00:00:00.000Z`, `${day}T23:59:59.999Z~`] as [string, string] } };
  for await (const page of eachPage(deps.table, query)) {
    for (const item of page) {
      if (item.payload_state !== 'Processed') continue;
      const payload = readPayload(item);
      if (isSamplingType(payload.payload_type)) recordings.push(payload);
    }
  }
  return recordings;
}

/** The recordings the policy's minimum adds for one person's day (none when the share already reached it). */
export function topUpsOf(
  policy: SupervisionPolicyItem,
  covered: readonly PayloadItem[],
): { payload: PayloadItem; value: number }[] {
  const valued = covered.map((payload) => ({ payload, payload_reference: payload.payload_reference, value: sampleValueOf(policy, payload.payload_reference) }));
  const sampled = valued.filter((one) => isSampled(one.value, policy.sample_percent ?? 0));
  const unsampled = valued.filter((one) => !isSampled(one.value, policy.sample_percent ?? 0));
  return topUpChoice(unsampled, sampled.length, policy.sample_minimum).map(({ payload, value }) => ({ payload, value }));
}

/** Tops up one person's day for every policy; the number of recordings raised. */
async function topUpPerson(
  deps: DailyDependencies,
  tenant: string,
  context: { policies: readonly SupervisionPolicyItem[]; deviceUser: string; day: string; groupFacts: ReturnType<typeof groupFactsCache> },
): Promise<number> {
  const recordings = await recordingsOfDay(deps, tenant, context.deviceUser, context.day);
  if (recordings.length === 0) return 0;
  let raised = 0;
  for (const policy of context.policies) {
    const covered: PayloadItem[] = [];
    for (const payload of recordings) {
      const group = await context.groupFacts(payload.group);
      if (policyCovers(policy, { payload_type: payload.payload_type, device_user_reference: payload.device_user_reference, group })) covered.push(payload);
    }
    for (const { payload, value } of topUpsOf(policy, covered)) {
      const hit: SupervisionHit = {
        policy_reference: policy.policy_reference,
        kind: 'Sampling',
        matches: [],
        sample_value: value,
        is_minimum_top_up: true,
        raised_at: deps.clock.now().toISOString(),
      };
      const recorded = await recordHits(deps, tenant, { recording: supervisedRecordingOf(payload), hits: [hit], reviewDays: policy.review_days, actor: DAILY_ACTOR });
      if (recorded.added > 0) raised += 1;
    }
  }
  return raised;
}

export async function supervisionDailyJob(
  deps: DailyDependencies,
  rawInput: Record<string, unknown>,
  budget: DailyBudget = { until: new Date(deps.clock.now().getTime() + JOB_RUN_MS) },
): Promise<Record<string, unknown>> {
  const input = SupervisionDailyInput.parse(rawInput);
  const day = input.day ?? yesterdayOf(deps.clock.now());
  let toppedUp = input.topped_up;
  let pages = 0;
  const spent = () => (budget.pages !== undefined && pages >= budget.pages) || (budget.until !== undefined && deps.clock.now().getTime() >= budget.until.getTime());
  const next = () => ({ ...(input.client === undefined ? {} : { client: input.client }), day, topped_up: toppedUp });
  const clients = input.client === undefined ? allClients(deps.table) : single(input.client);
  // The tenant whose marker stands for this run: where the last invocation stopped, until the next tenant's is written.
  let marked = input.at ?? input.after;
  const track = async (tenant: string, position: Record<string, unknown>) => {
    await renewTrackedJob(deps, trackedDaily(tenant, day, { ...next(), ...position }), JOB_RUN_MS);
    if (marked !== undefined && marked !== tenant) await endTrackedJob(deps, { client: marked, kind: 'supervision-daily', id: day });
    marked = tenant;
  };
  for await (const tenant of clients) {
    if ((input.at !== undefined && tenant < input.at) || (input.after !== undefined && tenant <= input.after)) continue;
    await track(tenant, { at: tenant, ...(tenant === input.at && input.start_key !== undefined ? { start_key: input.start_key } : {}) });
    const policies = (await tenantPolicies(deps, tenant)).filter((policy) => policy.is_enabled && policy.kind === 'Sampling' && policy.sample_minimum > 0);
    if (policies.length > 0) {
      const groupFacts = groupFactsCache(deps, tenant);
      let startKey = tenant === input.at ? input.start_key : undefined;
      do {
        const page = await deps.table.query({ ...keys.deviceUser.list(tenant), limit: USERS_PAGE, ...(startKey === undefined ? {} : { startKey }) });
        for (const user of page.items) {
          if (typeof user.device_user_reference !== 'string') continue;
          toppedUp += await topUpPerson(deps, tenant, { policies, deviceUser: user.device_user_reference, day, groupFacts });
        }
        startKey = page.lastKey;
        pages += 1;
        if (startKey !== undefined) await track(tenant, { at: tenant, start_key: startKey });
        if (startKey !== undefined && spent()) {
          await deps.jobs.start(SUPERVISION_DAILY_JOB, { ...next(), at: tenant, start_key: startKey });
          return { outcome: 'more', day, topped_up: toppedUp, at: tenant };
        }
      } while (startKey !== undefined);
    }
    await track(tenant, { after: tenant });
    if (input.client === undefined && spent()) {
      await deps.jobs.start(SUPERVISION_DAILY_JOB, { ...next(), after: tenant });
      return { outcome: 'more', day, topped_up: toppedUp, after: tenant };
    }
  }
  if (marked !== undefined) await endTrackedJob(deps, { client: marked, kind: 'supervision-daily', id: day });
  return { outcome: 'done', day, topped_up: toppedUp };
}

async function* single(client: string): AsyncGenerator<string> {
  yield client;
}
