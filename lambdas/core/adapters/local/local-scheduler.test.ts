import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../logger.ts';
import { createLocalScheduleStore, createLocalScheduler, followScheduleFile, localScheduleFile, readScheduleFile } from './local-scheduler.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('local scheduler', () => {
  it('runs rate schedules, replaces on upsert and stops on delete', async () => {
    vi.useFakeTimers();
    const runs: string[] = [];
    const scheduler = createLocalScheduler({ logger: createLogger({ sink: () => {} }), run: async (job, input) => void runs.push(`${job}:${String(input.n)}`) });
    await scheduler.upsertSchedule({ name: 'retention', expression: 'rate(5 minutes)', target: { job: 'retention', input: { n: 1 } } });
    vi.advanceTimersByTime(10 * 60_000);
    expect(runs).toEqual(['retention:1', 'retention:1']);
    await scheduler.upsertSchedule({ name: 'retention', expression: 'rate(1 hour)', target: { job: 'retention', input: { n: 2 } } });
    vi.advanceTimersByTime(60 * 60_000);
    expect(runs).toEqual(['retention:1', 'retention:1', 'retention:2']);
    expect(scheduler.list()).toEqual([{ name: 'retention', expression: 'rate(1 hour)' }]);
    await scheduler.deleteSchedule('retention');
    await scheduler.deleteSchedule('never-existed');
    vi.advanceTimersByTime(3 * 60 * 60_000);
    expect(runs).toHaveLength(3);
    expect(scheduler.list()).toEqual([]);
  });

  it('logs a failing job and keeps the schedule', async () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    let calls = 0;
    const scheduler = createLocalScheduler({
      logger: createLogger({ sink: (line) => lines.push(line) }),
      run: async () => {
        calls += 1;
        throw new Error('boom');
      },
    });
    await scheduler.upsertSchedule({ name: 'flaky', expression: 'rate(1 minute)', target: { job: 'flaky', input: {} } });
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(calls).toBe(2);
    expect(lines.filter((line) => line.includes('scheduled job failed'))).toHaveLength(2);
    scheduler.stopAll();
  });

  it('registers cron schedules and refuses invalid expressions', async () => {
    const scheduler = createLocalScheduler({ logger: createLogger({ sink: () => {} }), run: async () => {} });
    await scheduler.upsertSchedule({ name: 'nightly', expression: 'cron(0 2 * * ? *)', timezone: 'Europe/London', target: { job: 'transfer', input: {} } });
    expect(scheduler.list()).toEqual([{ name: 'nightly', expression: 'cron(0 2 * * ? *)' }]);
    await expect(scheduler.upsertSchedule({ name: 'bad', expression: 'every day', target: { job: 'x', input: {} } })).rejects.toThrow();
    expect(scheduler.list()).toHaveLength(1);
    scheduler.stopAll();
    expect(scheduler.list()).toEqual([]);
  });
});

describe('local schedules kept in the schedule file', () => {
  const quiet = createLogger({ sink: () => {} });
  const transfer = (reference: string, expression = 'rate(1 minute)') => ({
    name: `transfer-${reference}`,
    expression,
    target: { job: 'transfer', input: { client: 'acme', transfer_config_reference: reference, trigger: 'schedule' } },
  });
  /** A runner as `npm start` makes one: a fresh scheduler following the file, recording what it invokes. */
  const startRunner = async (file: string, fired: unknown[]) => {
    const scheduler = createLocalScheduler({ logger: quiet, run: async (job, input) => void fired.push({ job, input }) });
    await scheduler.upsertSchedule({ name: 'platform', expression: 'rate(1 hour)', target: { job: 'alerts-expiry', input: {} } });
    const following = await followScheduleFile(file, scheduler, quiet);
    return { scheduler, stop: () => (following.stop(), scheduler.stopAll()) };
  };

  it('fires after a restart the schedules made before it, and not one removed', async () => {
    vi.useFakeTimers();
    const folder = mkdtempSync(join(tmpdir(), 'verity-schedules-'));
    try {
      const file = localScheduleFile(folder);
      const store = createLocalScheduleStore(file);
      const firstFired: unknown[] = [];
      const first = await startRunner(file, firstFired);
      await store.upsertSchedule(transfer('kept'));
      await store.upsertSchedule(transfer('removed'));
      await store.deleteSchedule('transfer-removed');
      await vi.advanceTimersByTimeAsync(60_000);
      // The running scheduler follows changes at once: the removed schedule never fired.
      expect(firstFired).toEqual([transfer('kept').target]);
      first.stop();

      const fired: unknown[] = [];
      const second = await startRunner(file, fired);
      expect(second.scheduler.list().map((schedule) => schedule.name).sort()).toEqual(['platform', 'transfer-kept']);
      await vi.advanceTimersByTimeAsync(2 * 60_000);
      expect(fired).toEqual([transfer('kept').target, transfer('kept').target]);

      // A change while it runs replaces the timer; a delete stops it; the platform schedule stays.
      await store.upsertSchedule(transfer('kept', 'rate(5 minutes)'));
      await store.deleteSchedule('transfer-kept');
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(fired).toHaveLength(2);
      expect(second.scheduler.list().map((schedule) => schedule.name)).toEqual(['platform']);
      second.stop();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('follows a change another process made to the file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'verity-schedules-'));
    try {
      const file = localScheduleFile(folder);
      const fired: unknown[] = [];
      const runner = await startRunner(file, fired);
      // Written as another process would: straight to the file, no in-process notice.
      writeFileSync(file, JSON.stringify({ schedules: { 'transfer-elsewhere': transfer('elsewhere') } }));
      await vi.waitFor(() => expect(runner.scheduler.list().map((schedule) => schedule.name)).toContain('transfer-elsewhere'), { timeout: 10_000, interval: 100 });
      runner.stop();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    // The file is polled every two seconds; on a loaded machine the poll and the reload take longer than the default 5 s.
  }, 20_000);

  it('keeps what it is given in the file, refuses an expression EventBridge would refuse, and never reads a damaged file as empty', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'verity-schedules-'));
    try {
      const file = localScheduleFile(folder);
      const store = createLocalScheduleStore(file);
      await Promise.all([store.upsertSchedule(transfer('a')), store.upsertSchedule({ ...transfer('b', 'cron(0 2 * * ? *)'), timezone: 'UTC' })]);
      expect(readScheduleFile(file).map((schedule) => schedule.name).sort()).toEqual(['transfer-a', 'transfer-b']);
      expect(JSON.parse(readFileSync(file, 'utf8')).schedules['transfer-b']).toEqual({ ...transfer('b', 'cron(0 2 * * ? *)'), timezone: 'UTC' });
      await expect(store.upsertSchedule(transfer('bad', 'every day'))).rejects.toThrow();
      expect(readScheduleFile(file)).toHaveLength(2);
      writeFileSync(file, '{"schedules": {"x": {"name": 1}}}');
      expect(() => readScheduleFile(file)).toThrow(/is not a schedule file/);
      await expect(store.upsertSchedule(transfer('c'))).rejects.toThrow(/is not a schedule file/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
