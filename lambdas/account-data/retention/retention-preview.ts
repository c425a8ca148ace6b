import type { Dependencies } from '#core/dependencies.ts';
import { ValidationError } from '#core/errors.ts';
import type { QuerySpec } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import type { DueCount, DueUnderPolicy, RetentionPolicyRequest, RetentionPreview } from '#shared/contract/entities/account-data.ts';
import { getRetentionPolicy, retentionProblems } from './retention-policy.ts';
import { deletePasses, destroyPasses, dueRange, rulesOf, type DuePass, type RetentionRule } from './retention-rules.ts';

/**
 * `POST account/retention/preview`: what the next run would delete and destroy under a proposed policy, beside the
 * current one, per record type (per payload type for PayloadData). Each figure is Queries on the due index up to the
 * pass's cutoff, exactly the Queries the job runs, stopped at PREVIEW_COUNT_CAP items ("more than"); never a Scan.
 * Legal holds and receipt or transfer requirements are not applied (the run skips those records), so a figure is
 * what the policy makes due, an upper bound of what the run disposes of.
 */

export const PREVIEW_COUNT_CAP = 10_000;
const PAGE = 1_000;
/** Counts running at once (each reads up to the cap). */
const PARALLEL_COUNTS = 4;

type PreviewDependencies = Pick<Dependencies, 'table' | 'clock'>;

/** Items of one Query, up to the cap. */
async function countUpTo(deps: PreviewDependencies, query: QuerySpec, cap: number): Promise<DueCount> {
  let counted = 0;
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.table.query({ ...query, limit: Math.min(PAGE, cap + 1 - counted), ...(startKey ? { startKey } : {}) });
    counted += page.items.length;
    startKey = page.lastKey;
  } while (startKey !== undefined && counted <= cap);
  return counted > cap ? { count: cap, more: true } : { count: counted, more: false };
}

function queryOf(client: string, pass: DuePass): QuerySpec {
  const { rule } = pass;
  return {
    ...keys.retentionDue.list(client, { recordType: rule.recordType, payloadType: rule.payloadType, kind: rule.kind, stage: pass.stage }),
    sort: { between: dueRange(pass) },
  };
}

function sum(counts: DueCount[]): DueCount {
  const total = counts.reduce((all, one) => all + one.count, 0);
  const more = counts.some((one) => one.more);
  return total > PREVIEW_COUNT_CAP ? { count: PREVIEW_COUNT_CAP, more: true } : { count: total, more };
}

const rowKey = (rule: RetentionRule) => `${rule.recordType}#${rule.payloadType ?? ''}`;

export async function previewRetention(deps: PreviewDependencies, client: string, proposed: RetentionPolicyRequest): Promise<RetentionPreview> {
  const problems = retentionProblems(proposed);
  if (problems.length > 0) throw new ValidationError(problems);
  const now = deps.clock.now();
  const currentRules = new Map(rulesOf(await getRetentionPolicy(deps, client)).map((rule) => [rowKey(rule), rule]));
  const proposedRules = rulesOf(proposed);

  // The same Query (partition and cutoff) asked by both policies is counted once.
  const counts = new Map<string, Promise<DueCount>>();
  const pending: Array<() => void> = [];
  let running = 0;
  const limited = <T>(work: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const start = () => {
        running += 1;
        work()
          .then(resolve, reject)
          .finally(() => {
            running -= 1;
            pending.shift()?.();
          });
      };
      if (running < PARALLEL_COUNTS) start();
      else pending.push(start);
    });
  const countOf = (pass: DuePass) => {
    const query = queryOf(client, pass);
    const id = `${query.partition}|${pass.cutoff}`;
    let answer = counts.get(id);
    if (answer === undefined) counts.set(id, (answer = limited(() => countUpTo(deps, query, PREVIEW_COUNT_CAP))));
    return answer;
  };
  const underRule = async (rule: RetentionRule): Promise<DueUnderPolicy> => ({
    deleted: sum(await Promise.all(deletePasses(rule, now).map(countOf))),
    destroyed: sum(await Promise.all(destroyPasses(rule, now).map(countOf))),
  });
  const rows = await Promise.all(
    proposedRules.map(async (rule) => {
      const current = currentRules.get(rowKey(rule)) ?? rule;
      const [currentDue, proposedDue] = await Promise.all([underRule(current), underRule(rule)]);
      return {
        record_type: rule.recordType,
        ...(rule.payloadType === undefined ? {} : { payload_type: rule.payloadType as NonNullable<RetentionPreview['rows'][number]['payload_type']> }),
        current: currentDue,
        proposed: proposedDue,
      };
    }),
  );
  return { as_of: now.toISOString(), count_cap: PREVIEW_COUNT_CAP, rows };
}
