import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AlertScope, AlertSeverity } from '#shared/constants/alerts.ts';
import { raiseAlert, type RaiseAlertInput } from '../../lambdas/alerts/raise-alert.ts';
import { expireTenantAlerts } from '../../lambdas/alerts/expire-alerts.ts';
import { relatedEntity } from '../../lambdas/alerts/related-entities.ts';
import { alertAccessOf } from '../../lambdas/alerts/alert-permissions.ts';
import { clearAlerts, dismissAlerts } from '../../lambdas/alerts/bulk-actions.ts';
import { alertSummary } from '../../lambdas/alerts/alert-summary.ts';
import { listAlerts } from '../../lambdas/alerts/list-alerts.ts';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * Alerts end to end: the engine against DynamoDB Local (built by the real composition root), and the admin and
 * internal endpoints signed in as admin@demo.test, reviewer@demo.test (ops_read only) and staff@verity.test.
 * Keys carry this run's id, so reruns never meet.
 */
const run = randomUUID().slice(0, 8);
let deps: Dependencies;
let admin: string;
let reviewer: string;
let staff: string;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string };
}

async function call(method: string, path: string, body?: unknown, as = admin): Promise<Answer> {
  const response = await api(path.startsWith('/internal') ? path : `/api/v1/demo${path}`, {
    method,
    headers: bearer(as, body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const alert = (key: string, overrides: Partial<RaiseAlertInput> = {}): RaiseAlertInput => ({
  scope: 'ops',
  type: 'DeviceAlert',
  subject: 'Battery low',
  key,
  keyType: 'Scoped',
  message: 'battery at 5%',
  severity: 'Low',
  relatedEntities: [relatedEntity('demo', 'Device', `dev-${run}`)],
  ...overrides,
});

type Row = { reference: string; ok: boolean; message?: string };
/** A token's subject: a portal user's stable reference. */
const subjectOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string }).sub;
const rows = (answer: Answer) => answer.body.data as Row[];

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  const tokens = await Promise.all(
    ['admin@demo.test', 'reviewer@demo.test', 'staff@verity.test'].map(async (email) => (await signIn(email)).id_token),
  );
  [admin, reviewer, staff] = tokens as [string, string, string];
});

describe('the alert engine', () => {
  it('never makes a second open alert for a Scoped key, even under 20 concurrent raises', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => raiseAlert(deps, 'demo', alert(`scoped-${run}`, { message: `occurrence ${index}` }))),
    );
    expect(new Set(results.map((result) => result.alert.alert_reference)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const reference = results[0]?.alert.alert_reference as string;
    const read = await call('GET', `/alerts/${reference}`);
    expect(read.status).toBe(200);
    expect(read.body.occurrences).toHaveLength(20);
    expect(read.body.related_entities).toEqual([{ api_link: `/api/v1/demo/devices/dev-${run}`, page_link: `/dashboard/devices/dev-${run}` }]);
    const times = (read.body.occurrences as Array<{ time: string }>).map((occurrence) => occurrence.time).sort();
    expect(read.body.first_occurrence).toBe(times[0]);
    expect(read.body.last_occurrence).toBe(times[times.length - 1]);
  });

  it('keeps only the latest occurrences (bounded) with first and last exact', async () => {
    const key = `bounded-${run}`;
    const first = await raiseAlert(deps, 'demo', alert(key, { message: 'm0' }));
    for (let index = 1; index < 55; index += 1) await raiseAlert(deps, 'demo', alert(key, { message: `m${index}` }));
    const read = await call('GET', `/alerts/${first.alert.alert_reference}`);
    const occurrences = read.body.occurrences as Array<{ message: string }>;
    expect(occurrences).toHaveLength(50);
    expect(occurrences[0]?.message).toBe('m5');
    expect(occurrences[49]?.message).toBe('m54');
    expect(read.body.first_occurrence).toBe(first.alert.first_occurrence);
  });

  it('makes a new alert for every Transient raise', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => raiseAlert(deps, 'demo', alert(`transient-${run}`, { keyType: 'Transient' }))),
    );
    expect(new Set(results.map((result) => result.alert.alert_reference)).size).toBe(5);
  });

  it('triggers afresh as a new alert once the Scoped alert has cleared', async () => {
    const key = `refire-${run}`;
    const first = await raiseAlert(deps, 'demo', alert(key));
    const cleared = await call('PUT', '/alerts', { alert_references: [first.alert.alert_reference], action: 'Clear', cleared_reason: 'fixed' });
    expect(rows(cleared)).toEqual([{ reference: first.alert.alert_reference, ok: true }]);
    const read = await call('GET', `/alerts/${first.alert.alert_reference}`);
    // Who cleared it: their stable reference, and beside it the person as named when they did.
    expect(read.body).toMatchObject({
      alert_state: 'Cleared',
      cleared_reason: 'fixed',
      cleared_by: subjectOf(admin),
      cleared_by_actor: { reference: subjectOf(admin), kind: 'user', email: 'admin@demo.test' },
    });
    const again = await raiseAlert(deps, 'demo', alert(key));
    expect(again.created).toBe(true);
    expect(again.alert.alert_reference).not.toBe(first.alert.alert_reference);
  });

  it('clears expired alerts with reason Expired', async () => {
    const raised = await raiseAlert(deps, 'demo', alert(`expiring-${run}`, { expiresAfter: 'PT1S' }));
    const later = { ...deps, clock: { now: () => new Date(Date.now() + 5_000) } };
    expect(await expireTenantAlerts(later, 'demo')).toBeGreaterThanOrEqual(1);
    const read = await call('GET', `/alerts/${raised.alert.alert_reference}`);
    expect(read.body).toMatchObject({ alert_state: 'Cleared', cleared_reason: 'Expired' });
  });
});

describe('permissions and limits', () => {
  it('lets the reviewer (ops_read only) read ops alerts, but not clear them nor see sec alerts', async () => {
    const ops = await raiseAlert(deps, 'demo', alert(`perm-ops-${run}`));
    const sec = await raiseAlert(deps, 'demo', alert(`perm-sec-${run}`, { scope: 'sec', type: 'PortalUserAlert' }));
    expect((await call('GET', `/alerts/${ops.alert.alert_reference}`, undefined, reviewer)).status).toBe(200);
    expect((await call('GET', `/alerts/${sec.alert.alert_reference}`, undefined, reviewer)).status).toBe(403);
    const list = await call('GET', '/alerts?alert_scope=sec', undefined, reviewer);
    expect(list.body.data).toEqual([]);
    const summary = await call('GET', '/alerts/summary', undefined, reviewer);
    expect((summary.body.data as Array<{ scope: string }>).every((row) => row.scope === 'ops')).toBe(true);

    const clear = await call('PUT', '/alerts', { alert_references: [ops.alert.alert_reference, sec.alert.alert_reference], action: 'Clear' }, reviewer);
    // Clear is not among the reviewer's actions at all: refused before any alert is touched.
    expect(clear.status).toBe(403);
    expect((await call('GET', `/alerts/${ops.alert.alert_reference}`)).body.alert_state).toBe('Triggered');
  });

  it('refuses per reference what the caller may not dismiss, and dismisses idempotently', async () => {
    const sec = await raiseAlert(deps, 'demo', alert(`dismiss-sec-${run}`, { scope: 'sec' }));
    const ops = await raiseAlert(deps, 'demo', alert(`dismiss-ops-${run}`));
    // The reviewer's role has no Dismiss action: refused before any alert is touched.
    const asReviewer = await call('PUT', '/alerts/dismiss', { alert_references: [ops.alert.alert_reference] }, reviewer);
    expect(asReviewer.status).toBe(403);
    // Dismiss needs read on the alert's scope: an ops-only reader is refused the sec alert per reference.
    const opsOnly = alertAccessOf('ops-only@demo.test', { ops_read: true, ops_write: false, sec_read: false, sec_write: false });
    expect(await dismissAlerts({ deps, tenant: 'demo', alerts: opsOnly }, [ops.alert.alert_reference, sec.alert.alert_reference])).toEqual([
      { reference: ops.alert.alert_reference, ok: true },
      { reference: sec.alert.alert_reference, ok: false, message: 'Alert not found' },
    ]);
    const clearing = await clearAlerts({ deps, tenant: 'demo', alerts: opsOnly }, { alert_references: [ops.alert.alert_reference], action: 'Clear' }, { reference: 'ops-only', kind: 'user' });
    expect(clearing).toEqual([{ reference: ops.alert.alert_reference, ok: false, message: 'Not allowed to clear alerts of this scope' }]);
    const twice = await call('PUT', '/alerts/dismiss', { alert_references: [ops.alert.alert_reference] });
    expect(rows(twice)[0]?.ok).toBe(true);
    const again = await call('PUT', '/alerts/dismiss', { alert_references: [ops.alert.alert_reference] });
    expect(rows(again)[0]).toMatchObject({ ok: true, message: 'Already dismissed' });
    const read = await call('GET', `/alerts/${ops.alert.alert_reference}`);
    expect(String(read.body.dismissed_by).split(',').filter((user) => user === subjectOf(admin))).toHaveLength(1);
    expect(read.body.dismissed_by_actors).toEqual([expect.objectContaining({ reference: subjectOf(admin), email: 'admin@demo.test' })]);
  });

  it('still counts a dismissal kept under the e-mail that keyed it before the stable reference did', async () => {
    // A tenant of its own: its counters move with this test only.
    const tenant = `former-keys-${run}`.toLowerCase();
    const reference = (await raiseAlert(deps, tenant, alert(`former-key-${run}`))).alert.alert_reference;
    const reader = { ops_read: true, ops_write: false, sec_read: false, sec_write: false };
    const lowOps = (summary: Array<{ scope: string; severity: string; count: number }>) => summary.find((row) => row.scope === 'ops' && row.severity === 'Low')?.count;
    // As the e-mail-keyed service wrote it: the e-mail in dismissed_by and the counter under the e-mail.
    expect(await dismissAlerts({ deps, tenant, alerts: alertAccessOf('dana@example.test', reader) }, [reference])).toEqual([{ reference, ok: true }]);
    // The same person keyed by reference, the e-mail kept as a former key: already dismissed, counted once, not active.
    const now = alertAccessOf({ user: 'subject-dana', formerly: ['dana@example.test'] }, reader);
    expect(await dismissAlerts({ deps, tenant, alerts: now }, [reference])).toEqual([{ reference, ok: true, message: 'Already dismissed' }]);
    expect(lowOps(await alertSummary({ deps, tenant, alerts: now }))).toBe(0);
    const active = await listAlerts({ deps, tenant, alerts: now }, { active_only: true, limit: 100, date_filter: 'last_occurrence' } as never);
    expect('data' in active ? active.data.map((row) => row.alert_reference) : []).toEqual([]);
    // Without the former key the dismissal is not theirs: what a re-keying that forgot the e-mail would show.
    expect(lowOps(await alertSummary({ deps, tenant, alerts: alertAccessOf('subject-dana', reader) }))).toBe(1);
  });

  it('answers 400 with path lines for duplicates and 101 references', async () => {
    const ref = (await raiseAlert(deps, 'demo', alert(`limit-${run}`, { keyType: 'Transient' }))).alert.alert_reference;
    const duplicate = await call('PUT', '/alerts', { alert_references: [ref, ref], action: 'Clear' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.message).toMatch(/^body\.alert_references/m);
    const many = Array.from({ length: 101 }, (_, index) => `01J${String(index).padStart(23, '0')}`);
    const tooMany = await call('PUT', '/alerts/dismiss', { alert_references: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/^body\.alert_references/m);
    expect((await call('PUT', '/alerts', { alert_references: [], action: 'Clear' })).status).toBe(400);
  });

  it('lets staff read, dismiss and clear a client’s alerts on the internal console, and notify clients', async () => {
    const raised = await raiseAlert(deps, 'demo', alert(`staff-${run}`, { scope: 'sec' }));
    const reference = raised.alert.alert_reference;
    expect((await call('GET', `/internal/v1/clients/demo/alerts/${reference}`, undefined, staff)).status).toBe(200);
    expect(rows(await call('PUT', '/internal/v1/clients/demo/alerts/dismiss', { alert_references: [reference] }, staff))[0]?.ok).toBe(true);
    expect(rows(await call('PUT', '/internal/v1/clients/demo/alerts', { alert_references: [reference], action: 'Clear' }, staff))[0]?.ok).toBe(true);
    const notified = await call('POST', '/internal/v1/alerts', { scope: 'ops', severity: 'Medium', message: `hello ${run}`, clients: ['demo', 'nobody-here'] }, staff);
    expect(notified.status).toBe(200);
    expect(rows(notified)).toEqual([
      { reference: 'demo', ok: true },
      { reference: 'nobody-here', ok: false, message: 'Client not found' },
    ]);
    const own = await call('GET', '/internal/v1/alerts?alert_type=Notification', undefined, staff);
    expect((own.body.data as Array<{ alert_message: string }>).some((item) => item.alert_message === `hello ${run}`)).toBe(true);
  });
});

describe('the summary', () => {
  it('equals the counts of the list after 200 concurrent raises, dismissals and clears', async () => {
    const scopes: AlertScope[] = ['ops', 'sec'];
    const severities: AlertSeverity[] = ['Low', 'Medium', 'High'];
    const raised = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        raiseAlert(
          deps,
          'demo',
          alert(`summary-${run}-${index % 40}`, {
            scope: scopes[index % 2] as AlertScope,
            severity: severities[index % 3] as AlertSeverity,
            keyType: index % 5 === 0 ? 'Scoped' : 'Transient',
          }),
        ),
      ),
    );
    const references = [...new Set(raised.map((result) => result.alert.alert_reference))];
    // Dismiss some and clear some (overlapping, concurrently), so both counters move.
    await Promise.all([
      call('PUT', '/alerts/dismiss', { alert_references: references.slice(0, 30) }),
      call('PUT', '/alerts', { alert_references: references.slice(20, 40), action: 'Clear' }),
    ]);

    const counted = new Map<string, number>();
    let cursor: string | undefined;
    do {
      const page = await call('GET', `/alerts?active_only=true&limit=100${cursor ? `&last_key=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      for (const item of page.body.data as Array<{ alert_scope: string; alert_severity: string }>) {
        const name = `${item.alert_scope}/${item.alert_severity}`;
        counted.set(name, (counted.get(name) ?? 0) + 1);
      }
      cursor = page.body.last_key as string | undefined;
    } while (cursor !== undefined);

    const summary = await call('GET', '/alerts/summary');
    expect(summary.status).toBe(200);
    const rowsOf = summary.body.data as Array<{ scope: string; severity: string; count: number }>;
    expect(rowsOf).toHaveLength(6);
    for (const row of rowsOf) expect({ [`${row.scope}/${row.severity}`]: row.count }).toEqual({ [`${row.scope}/${row.severity}`]: counted.get(`${row.scope}/${row.severity}`) ?? 0 });
  });
});
