import type { Dependencies } from '#core/dependencies.ts';
import { allClients } from '#core/store/all-clients.ts';
import { readSupervisionItem } from '#core/store/entities/supervision-item.ts';
import { keys } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { raiseAlert } from '../../alerts/public.ts';

/** The job's name, as schedules and `npm run job -- supervision-deadlines` call it. */
export const SUPERVISION_DEADLINES_JOB = 'supervision-deadlines';

type DeadlineDeps = Pick<Dependencies, 'table' | 'clock'>;

/** The Scoped key of a policy's overdue alert: one open alert per policy, each run adding an occurrence with the count. */
export const overdueAlertKey = (policyReference: string) => `supervision-overdue:${policyReference}`;

/**
 * How many items not Closed are past their deadline, per policy that hit them: one Query of the tenant's outstanding
 * queue over deadlines before now (a key range), never a Scan. An item two policies hit is overdue under both.
 */
async function overdueByPolicy(deps: DeadlineDeps, client: string): Promise<Map<string, number>> {
  const now = deps.clock.now().toISOString();
  const counts = new Map<string, number>();
  // `now` itself sorts before `now#<reference>`: the range holds exactly the deadlines before now.
  for await (const page of eachPage(deps.table, { ...keys.supervisionItem.outstanding(client), sort: { between: ['0', now] } })) {
    for (const item of page.map(readSupervisionItem)) {
      if (item.state === 'Closed' || item.due_at >= now) continue;
      for (const policy of item.policy_references) counts.set(policy, (counts.get(policy) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * Raises one Scoped `SupervisionAlert` (scope ops) per policy with overdue items, naming how many: the open alert of
 * the policy gains an occurrence each run while items stay overdue, so the alert's latest message is the current
 * count. A policy with none overdue raises nothing; its alert is cleared by a person (or expires) as other alerts are.
 */
export async function raiseTenantOverdueAlerts(deps: DeadlineDeps, client: string): Promise<number> {
  const counts = await overdueByPolicy(deps, client);
  for (const [policy, count] of [...counts.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    await raiseAlert(deps, client, {
      scope: 'ops',
      type: 'SupervisionAlert',
      subject: `Supervision reviews overdue: ${policy}`,
      key: overdueAlertKey(policy),
      keyType: 'Scoped',
      message: `${count} review item${count === 1 ? '' : 's'} of policy ${policy} ${count === 1 ? 'is' : 'are'} past ${count === 1 ? 'its' : 'their'} deadline and not closed`,
      severity: 'Medium',
      apiAction: 'supervision:ListItems',
    });
  }
  return counts.size;
}

/** Job `supervision-deadlines`: every tenant's overdue alerts (the tenant list is a Query too). */
export async function supervisionDeadlinesJob(deps: DeadlineDeps): Promise<{ clients: number; alerts: number }> {
  let clients = 0;
  let alerts = 0;
  for await (const client of allClients(deps.table)) {
    clients += 1;
    alerts += await raiseTenantOverdueAlerts(deps, client);
  }
  return { clients, alerts };
}
