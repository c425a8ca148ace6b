import type { Dependencies } from '#core/dependencies.ts';
import { measureCapacity, type CapacityTotals } from '#core/ports/capacity-meter.ts';
import { readTransfer, transferWatermarkToItem } from '#core/store/entities/transfer.ts';
import { keys } from '#core/store/keys.ts';
import { retentionJob } from '../../lambdas/account-data/retention/retention-job.ts';
import { writeActivityRecord } from '../../lambdas/audit/trail/activity-log.ts';
import { linkTrails } from '../../lambdas/jobs/audit-sequencer.ts';
import { expireTenantAlerts } from '../../lambdas/alerts/expire-alerts.ts';
import { transferJob } from '../../lambdas/transfers/job/transfer-job.ts';
import { signInDemoAccount } from '../device/portal-sign-in.ts';
import type { LocalStack } from '../local/stack.ts';
import { demoTransferConfigRequest } from '../local/seed/transfer-config.ts';
import type { SeededTenant } from './capacity-seed.ts';

/**
 * The jobs part of the capacity bench (./capacity.ts): each job run on one tenant at each size inside a capacity
 * meter, and its figure divided by the items it handled. The least per item is what handling one item needs at the
 * least: read it once (half a unit per 4 KB of the items the job read, as a Query sums them) and write what the item
 * must change once (a unit per 1 KB of what the job wrote, per write the item needs), each job naming how many.
 */

export interface JobSide {
  capacity: CapacityTotals;
  /** Items handled (records linked, deleted, selected, …). */
  items: number;
  leastPerItem: number;
}

export interface JobFigure {
  label: string;
  small?: JobSide;
  large?: JobSide;
  note?: string;
}

type Sizes = Record<'small' | 'large', SeededTenant>;

/** The least one item needs: `reads` items read once and `writes` items written once, at the sizes this run saw. */
function leastPerItem(capacity: CapacityTotals, reads: number, writes: number): number {
  const readBytes = capacity.itemsRead > 0 ? capacity.bytesRead / capacity.itemsRead : 0;
  const writeBytes = capacity.itemsWritten > 0 ? capacity.bytesWritten / capacity.itemsWritten : 0;
  return reads * 0.5 * (readBytes / 4096) + writes * Math.max(1, Math.ceil(writeBytes / 1024));
}

async function side(work: () => Promise<number>, reads: number, writes: number): Promise<JobSide> {
  const { result: items, capacity } = await measureCapacity(work);
  return { capacity, items, leastPerItem: leastPerItem(capacity, reads, writes) };
}

/**
 * Audit sequencer: 100 new activity records written as every call writes them, then the tenant's trails linked.
 * Least per record: read it once, write its link once and take it off the pending list once (two writes).
 */
async function auditSequencer(deps: Dependencies, tenant: SeededTenant): Promise<JobSide> {
  // The local stack links new records itself every second (its stand-in for the Streams trigger): write them all at
  // once and link straight after, and try again when it got there first.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await Promise.all(
      Array.from({ length: 100 }, () =>
        writeActivityRecord(deps, { trail: 'user', client: tenant.client, entry: { activity_time: new Date().toISOString(), user_id: 'bench-admin', action: 'payloads:List', is_allowed: true, status_code: 200, roles: ['Admins'] } }),
      ),
    );
    const measured = await side(() => linkTrails(deps, tenant.client), 1, 2);
    if (measured.items >= 90 && measured.capacity.failedCalls === 0) return measured;
  }
  throw new Error('the local stack\'s own sequencer linked the records first five times');
}

/**
 * Retention: one invocation with a short budget on the tenant (the history's due records: 7-year-old recordings,
 * year-old GPS, …), the continuation not started. Least per record disposed: read its due marker and the record, write
 * its deletion and its marker's next stage.
 */
async function retention(deps: Dependencies, tenant: SeededTenant): Promise<JobSide> {
  const held = { ...deps, jobs: { start: async () => undefined } } as Dependencies;
  return side(async () => {
    const result = await retentionJob(held, { client: tenant.client, budget_ms: 4_000 });
    return Object.entries(result)
      .filter(([name, value]) => typeof value === 'number' && name !== 'clients')
      .reduce((total, [, value]) => total + (value as number), 0);
  }, 2, 2);
}

/**
 * Transfer selection: a daily Payload transfer of the tenant (its watermark a day back, as yesterday's run left it),
 * run with a destination that refuses to open, so the run chooses its files and then finishes failed without
 * delivering: the figure is the selection (and the run's bookkeeping) per file chosen. Least per file: read the
 * recording once, write its transfer file once.
 */
async function transferSelection(deps: Dependencies, stack: LocalStack, tenant: SeededTenant): Promise<JobSide> {
  const reference = 'bench-daily';
  const token = await signInDemoAccount(stack.apiUrl, `admin@${tenant.client}.test`);
  const response = await fetch(`${stack.apiUrl}/api/v1/${tenant.client}/transfer_configs/${reference}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(demoTransferConfigRequest(stack.sftp)),
  });
  if (!response.ok) throw new Error(`POST transfer_configs answered ${response.status}: ${await response.text()}`);
  await deps.table.put(transferWatermarkToItem({ client: tenant.client, transfer_config_reference: reference, report_to: tenant.recentFrom, transfer_id: 'bench-yesterday' }));
  return side(async () => {
    const result = await transferJob(deps, { client: tenant.client, transfer_config_reference: reference, max_attempts: 1 }, {
      openDestination: () => Promise.reject(new Error('the capacity bench measures selection only')),
    });
    const stored = await deps.table.get(keys.transfer.key(tenant.client, result.transfer_id as string));
    return stored === undefined ? 0 : (readTransfer(stored).files_total ?? 0);
  }, 1, 1);
}

/**
 * Alerts expiry (supervision, every few minutes): one tenant's run over its expiry queue. The seeded alerts have no
 * expiry, so it handles none: the figure is per run, and its least is one Query of an empty queue (half a unit).
 */
async function alertsExpiry(deps: Dependencies, tenant: SeededTenant): Promise<JobSide> {
  const { result: cleared, capacity } = await measureCapacity(() => expireTenantAlerts(deps, tenant.client));
  return { capacity, items: Math.max(1, cleared), leastPerItem: cleared === 0 ? 0.5 : leastPerItem(capacity, 1, 2) };
}

export async function benchCapacityJobs(options: { deps: Dependencies; stack: LocalStack; seeded: Sizes; log: (line: string) => void }): Promise<JobFigure[]> {
  const { deps, stack, seeded, log } = options;
  const figures: JobFigure[] = [];
  const both = async (label: string, run: (tenant: SeededTenant) => Promise<JobSide>, note?: string) => {
    log(`  ${label}…`);
    try {
      figures.push({ label, small: await run(seeded.small), large: await run(seeded.large), ...(note === undefined ? {} : { note }) });
    } catch (error) {
      figures.push({ label, note: `failed: ${error instanceof Error ? error.message.slice(0, 120) : String(error)}` });
    }
  };
  await both('transfer selection (per file chosen)', (tenant) => transferSelection(deps, stack, tenant));
  await both('audit sequencer (per record linked)', (tenant) => auditSequencer(deps, tenant));
  await both('retention (per record disposed)', (tenant) => retention(deps, tenant));
  await both('alerts expiry (per tenant run)', (tenant) => alertsExpiry(deps, tenant), 'DynamoDB Local reports no units for a Query that finds nothing');
  figures.push(
    { label: 'payload processing (per recording)', note: 'needs sealed objects in the raw bucket; the seed writes table items only' },
    { label: 'transfer delivery (per file)', note: 'needs sealed objects in the raw bucket; the seed writes table items only' },
    { label: 'legal-hold sync (per record)', note: 'walks the recordings\' S3 objects; the seed writes table items only' },
    { label: 'payload sweep, device deactivation', note: 'run over every tenant at once: no per-tenant figure to compare' },
    { label: 'migration import (per row)', note: 'not wired into this bench yet (npm run bench -- migration --profile counts calls per row)' },
  );
  return figures;
}
