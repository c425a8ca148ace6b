import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { recordPayloadMetric } from '../../lambdas/metrics/record-payload-metric.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * Payload metrics on the local stack: counters written by `recordPayloadMetric` (what payload processing calls),
 * read through `GET metrics/{scope}`. Devices carry this run's id; dates are in 2001 and 2002 (no other data there)
 * with a per-run day offset, so reruns against one table do not meet.
 */
const run = randomUUID().slice(0, 8);
const day = 1 + (parseInt(run.slice(0, 2), 16) % 27);
const date = (month: number, dayOffset = 0, time = '12:00:00') =>
  `2001-${String(month).padStart(2, '0')}-${String(day + dayOffset).padStart(2, '0')}T${time}.000Z`;
const param = (iso: string) => iso.slice(0, 10);
let admin: string;
let acme: string;
let deps: Dependencies;

interface Metric {
  device_reference: string;
  scope: string;
  period: string;
  counts: Record<string, number>;
  first_occurrence?: string;
  last_occurrence?: string;
}

async function get(path: string, as = admin): Promise<{ status: number; body: Record<string, unknown> & { message?: string } }> {
  const response = await api(path, { headers: bearer(as) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { message?: string } };
}

/** Every page of a metrics query, for one device. */
async function metrics(scope: string, query: string, device: string): Promise<Metric[]> {
  const all: Metric[] = [];
  let cursor: string | undefined;
  do {
    const page = await get(`/api/v1/demo/metrics/${scope}?${query}&device_reference=${device}&limit=2${cursor ? `&last_key=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    all.push(...(page.body.data as Metric[]));
    cursor = page.body.last_key as string | undefined;
  } while (cursor !== undefined);
  return all;
}

const one = `it-${run}-m1`;
const two = `it-${run}-m2`;

beforeAll(async () => {
  const [demoSession, acmeSession] = await Promise.all([signIn('admin@demo.test'), signIn('admin@acme.test')]);
  [admin, acme] = [demoSession.id_token, acmeSession.id_token];
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  // Out of order on purpose, and concurrent: counts must not be lost, first and last must still be the extremes.
  await Promise.all([
    recordPayloadMetric(deps, 'demo', { device_reference: one, payload_type: 'Call', time: date(3, 0, '15:00:00') }),
    recordPayloadMetric(deps, 'demo', { device_reference: one, payload_type: 'Call', time: date(3, 0, '09:00:00') }),
    recordPayloadMetric(deps, 'demo', { device_reference: one, payload_type: 'SMS', time: date(3, 0, '12:00:00') }),
    recordPayloadMetric(deps, 'demo', { device_reference: one, payload_type: 'SMS', time: date(3, 1) }),
    recordPayloadMetric(deps, 'demo', { device_reference: one, payload_type: 'Photo', time: date(5) }),
    recordPayloadMetric(deps, 'demo', { device_reference: two, payload_type: 'Call', time: date(3) }),
  ]);
});

describe('GET metrics/{scope}', () => {
  it('Daily: one bucket per day in the range, with counts and first and last occurrence', async () => {
    const daily = await metrics('Daily', `from=${param(date(3))}&to=${param(date(3, 1))}`, one);
    expect(daily).toEqual([
      {
        device_reference: one,
        scope: 'Daily',
        period: param(date(3)),
        counts: { Call: 2, SMS: 1 },
        first_occurrence: date(3, 0, '09:00:00'),
        last_occurrence: date(3, 0, '15:00:00'),
      },
      { device_reference: one, scope: 'Daily', period: param(date(3, 1)), counts: { SMS: 1 }, first_occurrence: date(3, 1), last_occurrence: date(3, 1) },
    ]);
  });

  it('Monthly and Yearly: the range selects whole periods', async () => {
    const monthly = await metrics('Monthly', `from=2001-03-28&to=2001-05-01`, one);
    expect(monthly.map((metric) => [metric.period, metric.counts])).toEqual([
      ['2001-03', { Call: 2, SMS: 2 }],
      ['2001-05', { Photo: 1 }],
    ]);
    const yearly = await metrics('Yearly', 'from=2001-01-01&to=2001-12-31', one);
    expect(yearly).toEqual([
      expect.objectContaining({ period: '2001', counts: { Call: 2, SMS: 2, Photo: 1 }, first_occurrence: date(3, 0, '09:00:00'), last_occurrence: date(5) }),
    ]);
    expect(await metrics('Yearly', 'from=2002-01-01&to=2002-12-31', one)).toEqual([]);
  });

  it('Summary: all time per device, whatever the range', async () => {
    const summary = await metrics('Summary', 'from=2030-01-01', one);
    expect(summary).toEqual([expect.objectContaining({ period: 'all', counts: { Call: 2, SMS: 2, Photo: 1 }, last_occurrence: date(5) })]);
    expect((await metrics('Summary', 'from=2000-01-01', two))[0]?.counts).toEqual({ Call: 1 });
  });

  it('Weekly buckets by ISO week', async () => {
    const weekly = await metrics('Weekly', `from=${param(date(5))}&to=${param(date(5))}`, one);
    expect(weekly).toHaveLength(1);
    expect(weekly[0]?.period).toMatch(/^2001-W\d{2}$/);
  });

  it('counts with result_type=total; refuses bad scopes, dates and cursors; tenants see only their own', async () => {
    expect((await get(`/api/v1/demo/metrics/Daily?from=${param(date(3))}&to=${param(date(3, 1))}&result_type=total&device_reference=${one}`)).body).toEqual({ count: 2 });
    const bad = await get('/api/v1/demo/metrics/Hourly');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('params.scope');
    expect((await get('/api/v1/demo/metrics/Daily?from=2001-05-01&to=2001-04-01')).body.message).toBe('query.from: Must not be after to');
    expect((await get('/api/v1/demo/metrics/Daily?from=yesterday')).status).toBe(400);
    expect((await get('/api/v1/demo/metrics/Daily?last_key=abc.def')).status).toBe(400);
    // A cursor minted for one scope is refused on another.
    const page = await get(`/api/v1/demo/metrics/Daily?from=2001-01-01&to=2001-12-31&limit=1`);
    expect(page.body.last_key).toEqual(expect.any(String));
    expect((await get(`/api/v1/demo/metrics/Monthly?from=2001-01-01&to=2001-12-31&limit=1&last_key=${encodeURIComponent(String(page.body.last_key))}`)).status).toBe(400);
    expect((await get(`/api/v1/acme/metrics/Summary?device_reference=${one}`, acme)).body.data).toEqual([]);
    expect((await get('/api/v1/demo/metrics/Summary', acme)).status).toBe(403);
  });

  it('refuses malformed input from the calling code', async () => {
    await expect(recordPayloadMetric(deps, 'demo', { device_reference: one, payload_type: 'Fax' as never, time: date(3) })).rejects.toThrow();
    await expect(recordPayloadMetric(deps, 'demo', { device_reference: 'a#b', payload_type: 'Call', time: date(3) })).rejects.toThrow();
    await expect(recordPayloadMetric(deps, 'demo', { device_reference: one, payload_type: 'Call', time: 'not a time' })).rejects.toThrow();
  });
});
