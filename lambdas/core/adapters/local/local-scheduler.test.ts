import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../logger.ts';
import { createLocalScheduler } from './local-scheduler.ts';

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
