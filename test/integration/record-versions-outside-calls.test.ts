import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixedClock } from '#core/adapters/local/clocks.ts';
import { jobActor } from '#core/auth/actor.ts';
import type { ItemKey, TableItem } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import type { ActivityTrail } from '#core/store/keys.ts';
import type { SupervisionHit } from '#shared/contract/entities/supervision.ts';
import { linkPending } from '../../lambdas/audit/trail/sequencer.ts';
import { LOCAL_AUDIT_SIGNING_KEY_ID } from '../../lambdas/audit/trail/signing-key.ts';
import { verifyChain } from '../../lambdas/audit/trail/verify-chain.ts';
import { authenticateDevice } from '../../lambdas/device-api/authenticate-device.ts';
import { sealDeviceReference } from '../../lambdas/device-crypto/device-keys.ts';
import { deactivateInactiveDevices } from '../../lambdas/devices/public.ts';
import { readExportRows } from '../../lambdas/migrations/format/index.ts';
import { createRowImporter, type RowResult } from '../../lambdas/migrations/import/index.ts';
import { recordHits } from '../../lambdas/supervision/public.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * Record versions written outside any tenant's call: a job's new hit on a review item, a device authenticating under
 * a new holder (or again after its deactivation), the inactivity job's deactivation, and a legacy migration's import
 * changing a device user or a device. Each keeps the version it replaced, and an activity record of the act (the
 * job's or the device's own, written in the same transaction) carries the version's digest: once linked, the chain's
 * verification counts the version and fails when it is altered. The admin's deactivation keeps its version under its
 * call's record.
 */
let tenant: RunTenant;
let admin: string;

const stored = async (key: ItemKey) => (await tenant.deps.table.get(key, { consistent: true })) as TableItem;
const versionItems = async (key: ItemKey) => (await tenant.deps.table.query({ ...keys.recordVersion.listOf(key), consistent: true, descending: true })).items;

/** Links what is pending on the trail and verifies it whole: how many versions its linked records vouch for. */
async function vouchedVersions(trail: ActivityTrail): Promise<number> {
  await linkPending(tenant.deps, trail, tenant.client);
  const verified = await verifyChain(tenant.deps, tenant.client, trail, { signingKeyId: LOCAL_AUDIT_SIGNING_KEY_ID });
  expect(verified.broken, JSON.stringify(verified.broken)).toBeUndefined();
  expect(verified.whole).toBe(true);
  return verified.versions ?? 0;
}

/** Alters the version in the table: the chain's verification names it; restored, the chain holds again. */
async function alteringBreaksTheChain(trail: ActivityTrail, version: TableItem): Promise<void> {
  const record = version.record as Record<string, unknown>;
  await tenant.deps.table.put({ ...version, record: { ...record, altered: 'behind Verity\'s back' } });
  const broken = await verifyChain(tenant.deps, tenant.client, trail, { signingKeyId: LOCAL_AUDIT_SIGNING_KEY_ID });
  expect(broken.whole).toBe(false);
  expect(broken.broken?.detail).toMatch(/record version .* no longer matches its digest/);
  await tenant.deps.table.put(version);
  expect((await verifyChain(tenant.deps, tenant.client, trail, { signingKeyId: LOCAL_AUDIT_SIGNING_KEY_ID })).whole).toBe(true);
}

beforeAll(async () => {
  tenant = await createRunTenant('versions-outside');
  const { client, deps } = tenant;
  const now = new Date().toISOString();
  for (const group of ['north', 'south']) await deps.table.put({ ...keys.group.item(client, group), client, group_reference: group, tags: [], updated_at: now });
  admin = await portalTokenFor(client, { sub: 'outside-admin', email: 'outside-admin@example.com', groups: ['admin'] });
});

afterAll(async () => tenant?.close());

describe('record versions written outside a call', () => {
  it('puts a job\'s new hit on a review item under the chain: the job\'s own record carries the version\'s digest', { timeout: 120_000 }, async () => {
    const before = await vouchedVersions('user');
    const itemRef = ulid();
    const hit = (policy: string): SupervisionHit => ({ policy_reference: policy, kind: 'Lexicon', term: 'guarantee', field: 'text', matches: [{ start: 0, end: 9 }], raised_at: new Date().toISOString() });
    const raise = (policy: string) =>
      recordHits(tenant.deps, tenant.client, {
        recording: { payload_reference: itemRef, payload_type: 'SMS', payload_time: new Date(Date.now() - 3_600_000).toISOString(), device_reference: 'dev-1', group: 'north' },
        hits: [hit(policy)],
        reviewDays: 7,
        actor: jobActor('supervision-apply'),
      });
    await raise('first-policy');
    const raised = await stored(keys.supervisionItem.key(tenant.client, itemRef));
    expect(await raise('second-policy')).toMatchObject({ added: 1 });
    // The same hit again changes nothing, so keeps no version and writes no record.
    expect(await raise('second-policy')).toMatchObject({ added: 0 });

    const versions = await versionItems(keys.supervisionItem.key(tenant.client, itemRef));
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ record: raised, replaced_by: 'job:supervision-apply', log_id: expect.any(String) });
    expect(await vouchedVersions('user')).toBe(before + 1);
    await alteringBreaksTheChain('user', versions[0]!);

    // The audit screen shows the job's act in words, naming the item.
    const trail = await tenant.call('GET', `/activities?action=${encodeURIComponent('supervision:RecordHits')}&kind=change`, admin);
    expect(trail.status).toBe(200);
    const records = trail.body.data as Array<Record<string, unknown>>;
    expect(records).toEqual([expect.objectContaining({ action: 'supervision:RecordHits', user_id: 'job:supervision-apply', parameters: expect.objectContaining({ item_reference: itemRef }) })]);
  });

  it('puts a device\'s own version under the device trail: a new holder\'s group, and a sign-in after its deactivation', { timeout: 120_000 }, async () => {
    const { client, deps } = tenant;
    const onboard = (group: string) => tenant.call(group === 'north' ? 'POST' : 'PUT', '/users/nora', admin, { group, services: ['calls'], expected_device_count: 1, email: 'nora@example.com', first_name: 'Nora', surname: 'North', is_active: true });
    expect((await onboard('north')).status).toBe(201);
    await deps.table.put({ ...keys.phoneNumber.item(client, '+447700900321', 'nora'), client, phone_number: '+447700900321', device_user_reference: 'nora' });
    const device = ulid();
    const key = keys.device.key(client, device);
    const authenticate = async () =>
      authenticateDevice(deps, { ulid_encrypted: await sealDeviceReference(deps, client, device), phone_numbers: ['+447700900321'], imeis: ['356938035643809'] } as Parameters<typeof authenticateDevice>[1]);
    await authenticate();
    const deviceBefore = await vouchedVersions('device');

    const inNorth = await stored(key);
    expect((await onboard('south')).status).toBe(200);
    await authenticate();
    const moved = await versionItems(key);
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({ record: inNorth, replaced_by: `device:${device}`, log_id: expect.any(String) });
    expect(await vouchedVersions('device')).toBe(deviceBefore + 1);
    await alteringBreaksTheChain('device', moved[0]!);

    // The admin's deactivation keeps the device as it was, under the DELETE call's own record.
    const userBefore = await vouchedVersions('user');
    const inSouth = await stored(key);
    expect((await tenant.call('DELETE', `/devices/${device}`, admin)).status).toBe(200);
    const deactivated = await stored(key);
    expect(deactivated).toMatchObject({ is_deactivated: true });
    expect((await versionItems(key))[0]).toMatchObject({ record: inSouth, replaced_by: 'outside-admin' });
    expect(await vouchedVersions('user')).toBe(userBefore + 1);
    // Deactivating again changes nothing: no version.
    expect((await tenant.call('DELETE', `/devices/${device}`, admin)).status).toBe(200);
    expect(await versionItems(key)).toHaveLength(2);

    // Signing in again reactivates it: the deactivated device is kept, by the device, under the device trail.
    await authenticate();
    const reactivated = await versionItems(key);
    expect(reactivated).toHaveLength(3);
    expect(reactivated[0]).toMatchObject({ record: deactivated, replaced_by: `device:${device}` });
    expect(await vouchedVersions('device')).toBe(deviceBefore + 2);

    // The inactivity job's deactivation: the device last seen in 2001, the job's clock a month on.
    await deps.table.update(key, { set: { last_seen: '2001-01-01T00:00:00.000Z' } });
    await deps.table.put({ ...keys.device.lastSeen(client, device, '2001-01-01T00:00:00.000Z'), client, device_reference: device, last_seen: '2001-01-01T00:00:00.000Z' });
    const idle = await stored(key);
    const report = await deactivateInactiveDevices({ ...deps, clock: createFixedClock('2001-03-01T00:00:00.000Z') }, 30);
    expect(report).toMatchObject({ failed: 0 });
    expect(report.deactivated).toBeGreaterThanOrEqual(1);
    const byJob = await versionItems(key);
    expect(byJob).toHaveLength(4);
    // Kept at the job's time (2001 here), so it sorts first of the device's versions: found by who made it.
    const jobVersion = byJob.find((version) => version.replaced_by === 'job:device-deactivation');
    expect(jobVersion).toMatchObject({ record: idle, log_id: expect.any(String) });
    expect(await vouchedVersions('user')).toBe(userBefore + 2);
    await alteringBreaksTheChain('user', jobVersion!);
  });

  it('keeps what a legacy import changed of a device user and a device, under the import job\'s record; an unchanged re-import keeps nothing', { timeout: 120_000 }, async () => {
    const { client, deps } = tenant;
    const HEADER = JSON.stringify({ kind: 'verity-legacy-export', version: 1, source: 'Legacy Recorder' });
    const rows = (firstName: string, deactivated: boolean) => [
      HEADER,
      JSON.stringify({ kind: 'group', group_reference: 'legacy-north' }),
      JSON.stringify({ kind: 'device_user', device_user_reference: 'lena', group: 'legacy-north', services: ['calls'], is_active: true, first_name: firstName }),
      JSON.stringify({ kind: 'device', device_reference: 'legacy-phone-1', device_user_reference: 'lena', is_deactivated: deactivated }),
    ];
    const importRows = async (lines: string[], migrationReference: string): Promise<RowResult[]> => {
      const importer = createRowImporter(deps, { client, migrationReference, settings: { disable_onboarding: false, disable_offboarding: false, disable_payloads: false }, now: new Date() });
      const results: RowResult[] = [];
      async function* chunks() {
        yield Buffer.from(`${lines.join('\n')}\n`, 'utf8');
      }
      for await (const parsed of readExportRows(chunks())) {
        expect(parsed.ok).toBe(true);
        if (parsed.ok) results.push(...(await importer.importRow(parsed.value, parsed.row)));
      }
      await importer.finish();
      return results;
    };
    const userKey = keys.deviceUser.key(client, 'lena');
    const deviceKey = keys.device.key(client, 'legacy-phone-1');
    expect((await importRows(rows('Lena', false), 'first')).map((result) => result.kind)).toEqual(['success', 'success', 'success']);
    const before = await vouchedVersions('user');
    const userAsImported = await stored(userKey);
    const deviceAsImported = await stored(deviceKey);
    expect(await versionItems(userKey)).toEqual([]);

    const changed = await importRows(rows('Lene', true), 'second');
    expect(changed.slice(1).map((result) => result.message)).toEqual([expect.stringMatching(/first_name/), expect.stringMatching(/is_deactivated/)]);
    const userVersions = await versionItems(userKey);
    const deviceVersions = await versionItems(deviceKey);
    expect(userVersions).toHaveLength(1);
    expect(deviceVersions).toHaveLength(1);
    expect(userVersions[0]).toMatchObject({ kind: 'device-user', record: userAsImported, replaced_by: 'job:migration:second', log_id: expect.any(String) });
    expect(deviceVersions[0]).toMatchObject({ kind: 'device-assignment', record: deviceAsImported, replaced_by: 'job:migration:second' });
    expect(await vouchedVersions('user')).toBe(before + 2);
    await alteringBreaksTheChain('user', userVersions[0]!);

    // The same rows again (a resumed or repeated import): nothing changes, no version, no record.
    const again = await importRows(rows('Lene', true), 'third');
    expect(again.slice(1).map((result) => result.type)).toEqual(['NoChangeToUser', 'NoChangeToDevice']);
    expect(await versionItems(userKey)).toHaveLength(1);
    expect(await versionItems(deviceKey)).toHaveLength(1);
    expect(await vouchedVersions('user')).toBe(before + 2);

    // The history answers them as any version, under the record's own read rules.
    const history = await tenant.call('GET', '/history/device-user/lena', admin);
    expect(history.status).toBe(200);
    expect((history.body.data as Array<{ record: TableItem }>).map((version) => version.record)).toEqual([userAsImported]);
  });
});
