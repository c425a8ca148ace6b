import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#core/store/keys.ts';
import { readAll } from '#core/store/paging.ts';
import { PendingChange } from '#shared/contract/entities/approvals.ts';
import { CUSTODY_DAYS, DESTROY_GRACE_DAYS } from '../../lambdas/account-data/retention/retention-defaults.ts';
import { retentionRunTo } from './support/retention-run.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * Four eyes' pending changes under retention, on the local stack: a decided (here withdrawn) and an expired change
 * are the record of who asked and who decided, kept as long as the activity records (UserActivityData, the default
 * period), counted from the decision; a change still pending is never due. Past the period retention marks them
 * Deleted (out of the list and reads), and past destruction removes them, each with a disposal record.
 */
let tenant: RunTenant;
const DAY = 86_400_000;

const changeKey = (reference: string) => keys.approval.change(tenant.client, reference);
const marker = (reference: string) => tenant.deps.table.get(keys.retentionDue.key(tenant.client, changeKey(reference), 'at'), { consistent: true });
const stored = (reference: string) => tenant.deps.table.get(changeKey(reference), { consistent: true });

const retentionRun = (now: string) => retentionRunTo(tenant.deps, tenant.client, now);

beforeAll(async () => {
  tenant = await createRunTenant('approvals-kept');
  const now = new Date().toISOString();
  await tenant.deps.table.put({ ...keys.deviceUser.item(tenant.client, 'rita'), client: tenant.client, device_user_reference: 'rita', is_active: true, services: [], updated_at: now });
});
afterAll(() => tenant.close());

describe('pending changes under retention (UserActivityData)', () => {
  it('keeps a decided and an expired change for the activity records\' period from their decision, never a pending one, then disposes of them', { timeout: 240_000 }, async () => {
    const shorter = { PayloadData: [{ payload_type: 'Call', delete_after_days: 1200, destroy_after_days: 1290 }] };
    const requested = await tenant.call('PUT', '/account/retention', tenant.admin, shorter);
    expect(requested.status).toBe(202);
    const withdrawn = PendingChange.parse(requested.body);
    expect(await marker(withdrawn.approval_reference)).toBeUndefined();
    const rejected = await tenant.call('POST', `/approvals/${withdrawn.approval_reference}/reject`, tenant.admin, {});
    expect(rejected.body).toMatchObject({ status: 'Rejected' });
    expect(await marker(withdrawn.approval_reference)).toMatchObject({ record_type: 'UserActivityData', base_time: (rejected.body as { decided_at: string }).decided_at, reference: withdrawn.approval_reference });

    const again = PendingChange.parse((await tenant.call('PUT', '/account/retention', tenant.admin, shorter)).body);
    await tenant.deps.table.update(changeKey(again.approval_reference), { set: { expires_at: new Date(Date.now() - 1000).toISOString() } });
    expect((await tenant.call('GET', `/approvals/${again.approval_reference}`, tenant.admin)).body).toMatchObject({ status: 'Expired' });
    expect(await marker(again.approval_reference)).toMatchObject({ record_type: 'UserActivityData' });

    // A hold placed and its release requested: pending, so never due whatever the time.
    expect((await tenant.call('PUT', '/account/legal_holds/DeviceUser/rita', tenant.admin, {})).status).toBe(200);
    const release = await tenant.call('DELETE', '/account/legal_holds/DeviceUser/rita', tenant.admin);
    expect(release.status).toBe(202);
    const waiting = PendingChange.parse(release.body);
    expect(await marker(waiting.approval_reference)).toBeUndefined();

    // Within the period nothing goes.
    await retentionRun(new Date(Date.now() + (CUSTODY_DAYS - 2) * DAY).toISOString());
    expect(await stored(withdrawn.approval_reference)).not.toHaveProperty('retention_state');

    // Past it: Deleted, out of the list and reads; the pending release stays as it was.
    await retentionRun(new Date(Date.now() + (CUSTODY_DAYS + 2) * DAY).toISOString());
    for (const reference of [withdrawn.approval_reference, again.approval_reference]) {
      expect(await stored(reference)).toMatchObject({ retention_state: 'Deleted' });
      expect((await tenant.call('GET', `/approvals/${reference}`, tenant.admin)).status).toBe(404);
    }
    const listed = await tenant.call('GET', '/approvals?limit=100', tenant.admin);
    expect((listed.body.data as PendingChange[]).map((change) => change.approval_reference)).toEqual([waiting.approval_reference]);
    expect(await stored(waiting.approval_reference)).toMatchObject({ status: 'Pending' });

    // Past destruction: gone, each with its disposal record.
    await retentionRun(new Date(Date.now() + (CUSTODY_DAYS + DESTROY_GRACE_DAYS + 2) * DAY).toISOString());
    expect(await stored(withdrawn.approval_reference)).toBeUndefined();
    expect(await stored(again.approval_reference)).toBeUndefined();
    expect(await stored(waiting.approval_reference)).toMatchObject({ status: 'Pending' });
    const disposals = await readAll(tenant.deps.table, { ...keys.disposal.list(tenant.client), consistent: true });
    const disposed = disposals.filter((entry) => entry.reference === withdrawn.approval_reference);
    expect(disposed.map((entry) => [entry.record_type, entry.action]).sort()).toEqual([['UserActivityData', 'Deleted'], ['UserActivityData', 'Destroyed']]);
  });
});
