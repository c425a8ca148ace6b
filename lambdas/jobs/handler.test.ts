import { describe, expect, it } from 'vitest';
import { PLATFORM_SCHEDULES } from '../../lib/config/job-schedules.ts';
import { createFixedClock } from '#core/adapters/local/clocks.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { createLogger } from '#core/logger.ts';
import type { QuerySpec, TableStore } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { createJobsHandler } from './handler.ts';
import { JOBS } from './jobs.ts';

/** Dependencies whose table answers empty partitions and records which ones were queried. */
function fakeDependencies() {
  const queried: QuerySpec[] = [];
  const lines: string[] = [];
  const table = {
    query: async (query: QuerySpec) => {
      queried.push(query);
      return { items: [] };
    },
  } as unknown as TableStore;
  const dependencies = {
    table,
    clock: createFixedClock(),
    config: { DEVICE_INACTIVITY_DAYS: 30 },
    logger: createLogger({ level: 'debug', sink: (line) => lines.push(line) }),
  } as unknown as Dependencies;
  return { dependencies, queried, lines };
}

describe('jobs handler', () => {
  it('knows every job the platform schedules name (CDK and local scheduler read the same list)', () => {
    for (const schedule of PLATFORM_SCHEDULES) expect(Object.keys(JOBS), schedule.name).toContain(schedule.target.job);
  });

  it('runs the support-access expiry over the approved and pending state partitions with Queries', async () => {
    const { dependencies, queried } = fakeDependencies();
    const result = await createJobsHandler(() => dependencies)({ job: 'support-access-expiry', input: {} });
    expect(result).toEqual({ expired: 0, skipped: 0 });
    expect(queried.map((query) => query.partition)).toEqual([
      keys.supportAccess.listByState('approved').partition,
      keys.supportAccess.listByState('pending').partition,
    ]);
    expect(queried.every((query) => query.index === 'gsi1')).toBe(true);
  });

  it('payload-processing refuses an input that names no valid payload, before touching the table', async () => {
    const { dependencies, queried } = fakeDependencies();
    const run = createJobsHandler(() => dependencies);
    await expect(run({ job: 'payload-processing', input: {} })).rejects.toThrow(/payload-processing: client: .+; payload_reference: /);
    await expect(run({ job: 'payload-processing', input: { client: 'acme', payload_reference: '../x', extra: 1 } })).rejects.toThrow(/payload_reference/);
    expect(queried).toEqual([]);
  });

  it('defaults a missing input to {}', async () => {
    const { dependencies } = fakeDependencies();
    await expect(createJobsHandler(() => dependencies)({ job: 'device-deactivation' })).resolves.toMatchObject({ clients: 0, deactivated: 0 });
  });

  it('walks the clients for device deactivation with a Query on the client list', async () => {
    const { dependencies, queried } = fakeDependencies();
    await createJobsHandler(() => dependencies)({ job: 'device-deactivation', input: {} });
    expect(queried.map((query) => [query.index, query.partition])).toEqual([[keys.account.listAll().index, keys.account.listAll().partition]]);
  });

  it('runs the payload sweep over the client list with a Query (each client\'s due markers are a key range)', async () => {
    const { dependencies, queried } = fakeDependencies();
    await expect(createJobsHandler(() => dependencies)({ job: 'payload-sweep', input: {} })).resolves.toMatchObject({ clients: 0, due: 0 });
    expect(queried.map((query) => [query.index, query.partition])).toEqual([[keys.account.listAll().index, keys.account.listAll().partition]]);
  });

  it('refuses an unknown job, including names that exist on Object.prototype', async () => {
    const { dependencies } = fakeDependencies();
    const handler = createJobsHandler(() => dependencies);
    await expect(handler({ job: 'no-such-job' })).rejects.toThrow('Unknown job "no-such-job"');
    await expect(handler({ job: 'constructor' })).rejects.toThrow('Unknown job "constructor"');
    await expect(handler({ job: '__proto__' })).rejects.toThrow('Unknown job');
  });

  it('does not run the transfer job: it has a function of its own (lambdas/transfer-jobs)', async () => {
    const { dependencies, queried } = fakeDependencies();
    await expect(createJobsHandler(() => dependencies)({ job: 'transfer', input: { client: 'acme', transfer_config_reference: 'nightly' } })).rejects.toThrow('Unknown job "transfer"');
    expect(Object.keys(JOBS)).not.toContain('transfer');
    expect(queried).toEqual([]);
  });

  it('refuses malformed events with the reason, and acknowledges bus events it does not handle yet', async () => {
    const { dependencies, lines } = fakeDependencies();
    const handler = createJobsHandler(() => dependencies);
    await expect(handler(null)).rejects.toThrow(/^Not a job event: /);
    await expect(handler({ job: 42 })).rejects.toThrow('job: ');
    await expect(handler({ job: 'x'.repeat(65) })).rejects.toThrow('Not a job event');
    await expect(handler({ job: 'support-access-expiry', input: [] })).rejects.toThrow('input: ');
    await expect(handler({ source: 'aws.s3', 'detail-type': 'Object Created', detail: {} })).resolves.toEqual({ skipped: true });
    expect(lines.some((line) => line.includes('event not handled yet'))).toBe(true);
  });
});
