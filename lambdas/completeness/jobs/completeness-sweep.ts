import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { allClients } from '#core/store/all-clients.ts';
import { ClientId } from '#shared/contract/fields.ts';
import { completenessSettingsOf } from '../settings/completeness-settings.ts';
import { matchAwaitingRecording } from './late-match.ts';
import { pendingPage, unalertedPage } from './pending-sweep.ts';
import { silentDevicesPage } from './silent-devices.ts';
import { unexpectedPage } from './unexpected-sweep.ts';

/** The job's name, as the schedule and `npm run job -- completeness-sweep [--client <c>]` call it. */
export const COMPLETENESS_SWEEP_JOB = 'completeness-sweep';
/** A run's time budget: the jobs function's limit is longer; past it the job starts itself again where it stopped. */
const JOB_RUN_MS = 4 * 60_000;

const PHASES = ['alerts', 'pending', 'unexpected', 'silent'] as const;
type Phase = (typeof PHASES)[number];

export const CompletenessSweepInput = z.object({
  client: ClientId.optional(),
  /** Where the last run stopped: the tenant, its phase, and the position in that phase's list. */
  at: ClientId.optional(),
  phase: z.enum(PHASES).optional(),
  start_key: z.record(z.string(), z.string()).optional(),
  /** The last tenant the last run finished. */
  after: ClientId.optional(),
  /** What the runs before this one (of the same sweep) did. */
  moved_missing: z.int().min(0).default(0),
  matched_late: z.int().min(0).default(0),
  unexpected: z.int().min(0).default(0),
  silent: z.int().min(0).default(0),
  alerts_recovered: z.int().min(0).default(0),
});

export type SweepDependencies = Pick<Dependencies, 'table' | 'clock' | 'jobs'>;

export interface SweepBudget {
  until?: Date;
  /** Query pages a run reads at most (tests stop a run early this way). */
  pages?: number;
}

type Totals = Pick<z.output<typeof CompletenessSweepInput>, 'moved_missing' | 'matched_late' | 'unexpected' | 'silent' | 'alerts_recovered'>;

/**
 * The `completeness-sweep` job (hourly), per tenant (every tenant, or `client`), in four phases:
 * 0. `alerts`: Missing entries whose gap alert a failed run left unraised (pending-sweep.ts `unalertedPage`);
 * 1. `pending`: entries past their grace. Each is offered once more to a recording awaiting its entry (intake and
 *    processing racing can leave both unmatched), else goes `Missing` with its counts and raises its gap alert;
 * 2. `unexpected`: recordings awaiting their entry past their grace whose phone's ledger covers their time;
 * 3. `silent`: activated devices heard from that sent neither ledger nor telemetry for the account's silent hours.
 * Each phase reads Query pages and moves only what its conditions still allow, so a run repeated or overlapping
 * another changes nothing twice. Past its time budget the job starts itself again from the page it reached (as
 * supervision-daily does); an invocation that dies is simply done again by the next hourly run, since a moved entry or
 * marker has left the lists the sweep reads. Answers what it did, for the job log.
 */
export async function completenessSweepJob(
  deps: SweepDependencies,
  rawInput: Record<string, unknown>,
  budget: SweepBudget = { until: new Date(deps.clock.now().getTime() + JOB_RUN_MS) },
): Promise<Record<string, unknown>> {
  const input = CompletenessSweepInput.parse(rawInput);
  const { moved_missing, matched_late, unexpected, silent, alerts_recovered } = input;
  const totals: Totals = { moved_missing, matched_late, unexpected, silent, alerts_recovered };
  let pages = 0;
  const spent = () => (budget.pages !== undefined && pages >= budget.pages) || (budget.until !== undefined && deps.clock.now().getTime() >= budget.until.getTime());
  const goOn = async (where: Record<string, unknown>) => {
    await deps.jobs.start(COMPLETENESS_SWEEP_JOB, { ...(input.client === undefined ? {} : { client: input.client }), ...totals, ...where });
    return { outcome: 'more', ...totals, ...where };
  };
  const clients = input.client === undefined ? allClients(deps.table) : single(input.client);
  for await (const tenant of clients) {
    if ((input.at !== undefined && tenant < input.at) || (input.after !== undefined && tenant <= input.after)) continue;
    const settings = await completenessSettingsOf(deps, tenant);
    const resuming = tenant === input.at;
    const firstPhase = resuming ? PHASES.indexOf(input.phase ?? 'alerts') : 0;
    for (const phase of PHASES.slice(firstPhase)) {
      let startKey = resuming && phase === input.phase ? input.start_key : undefined;
      do {
        startKey = await runPage(deps, tenant, phase, { settings, startKey, totals });
        pages += 1;
        if (startKey !== undefined && spent()) return goOn({ at: tenant, phase, start_key: startKey });
      } while (startKey !== undefined);
    }
    if (input.client === undefined && spent()) return goOn({ after: tenant });
  }
  return { outcome: 'done', ...totals };
}

/** One page of one phase; adds what it did to `totals`; the key to go on from, if the phase's list goes on. */
async function runPage(
  deps: SweepDependencies,
  tenant: string,
  phase: Phase,
  context: {
    settings: Awaited<ReturnType<typeof completenessSettingsOf>>;
    startKey: Record<string, string> | undefined;
    totals: Totals;
  },
): Promise<Record<string, string> | undefined> {
  const { settings, startKey, totals } = context;
  switch (phase) {
    case 'alerts': {
      const page = await unalertedPage(deps, tenant, { graceHours: settings.graceHours, startKey });
      totals.alerts_recovered += page.raised;
      return page.lastKey;
    }
    case 'pending': {
      const page = await pendingPage(deps, tenant, { graceHours: settings.graceHours, matchAwaiting: matchAwaitingRecording, startKey });
      totals.moved_missing += page.movedMissing;
      totals.matched_late += page.matchedLate;
      return page.lastKey;
    }
    case 'unexpected': {
      const page = await unexpectedPage(deps, tenant, { graceHours: settings.graceHours, startKey });
      totals.unexpected += page.unexpected;
      return page.lastKey;
    }
    case 'silent': {
      const page = await silentDevicesPage(deps, tenant, settings.silentDeviceHours, startKey);
      totals.silent += page.silent;
      return page.lastKey;
    }
  }
}

async function* single(client: string): AsyncGenerator<string> {
  yield client;
}
