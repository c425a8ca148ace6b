import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentToItem } from '#core/store/entities/comment.ts';
import { deviceLogToItem } from '#core/store/entities/device-log.ts';
import { gpsToItem } from '#core/store/entities/gps.ts';
import { awaitingEntryToItem } from '#core/store/entities/awaiting-entry.ts';
import { ledgerEntryToItem } from '#core/store/entities/ledger-entry.ts';
import { payloadAuditToItem } from '#core/store/entities/payload-audit.ts';
import { keys } from '#core/store/keys.ts';
import { LegalHold } from '#shared/contract/entities/account-data.ts';
import { holdCoverageCounts, type CoverageViewer } from '../../lambdas/account-data/legal-holds/coverage-counts.ts';
import { writeActivityRecord } from '../../lambdas/audit/trail/activity-log.ts';
import { portalUserItem } from '../../scripts/admin/tenant-items.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * What each active hold covers, as `GET account/legal_holds` counts it on the local stack (DynamoDB Local), in a
 * tenant of this run. Fleet: `carol` recorded 3 calls, 4 GPS fixes and 2 log lines on `dev-c`, which `dave` holds
 * now; dave recorded 1 call, 1 fix and 1 line on it himself. Its ledger has 3 entries of carol's (2 calls, 1 SMS) and
 * 1 of dave's, beside a recording of dave's no entry explains (Unexpected: not an entry). So a hold on carol covers her
 * 3/4/2/3 and no device; a hold on dave covers his own and, as his device's data, carol's: 4/5/3/4 and 1 device. Portal user `officer-2` (e-mail
 * `officer2@example.com`) raised 2 comments, confirmed 1 receipt (both named by e-mail, as the services write them)
 * and made 3 calls (named by reference in the activity trail); someone else's comment does not count.
 */
let tenant: RunTenant;
const carol = 'carol';
const dave = 'dave';
const officer = 'officer-2';
const officerEmail = 'officer2@example.com';

beforeAll(async () => {
  tenant = await createRunTenant('holdcount');
  const { client, deps } = tenant;
  const now = new Date();
  const at = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
  for (const user of [carol, dave]) {
    await deps.table.put({ ...keys.deviceUser.item(client, user), client, device_user_reference: user, is_active: true, services: [], updated_at: at(0) });
  }
  await deps.table.put({ ...keys.device.item(client, 'dev-c', dave), client, device_reference: 'dev-c', device_user_reference: dave });
  await deps.table.put(portalUserItem({ sub: officer, email: officerEmail, client, roles: ['admin'] }, at(0), 'seed') as never);

  const recorded = async (user: string, calls: number, fixes: number, lines: number) => {
    for (let n = 0; n < calls; n += 1) {
      const reference = ulid();
      await deps.table.put({
        ...keys.payload.item(client, { payloadReference: reference, payloadTime: at(n), deviceReference: 'dev-c', deviceUserReference: user }),
        client,
        payload_reference: reference,
        payload_type: 'Call',
        payload_state: 'Processed',
        device_reference: 'dev-c',
        device_user_reference: user,
        payload_time: at(n),
      });
    }
    for (let n = 0; n < fixes; n += 1) {
      await deps.table.put(gpsToItem(client, { gps_reference: ulid(), device_reference: 'dev-c', device_user_reference: user, latitude: 51.5, longitude: -0.1, timestamp: at(n) }));
    }
    for (let n = 0; n < lines; n += 1) {
      await deps.table.put(deviceLogToItem(client, { log_id: ulid(), device_reference: 'dev-c', device_user_reference: user, log_level: 'INFO', log_datetime: at(n), log_message: 'ok' }));
    }
  };
  await recorded(carol, 3, 4, 2);
  await recorded(dave, 1, 1, 1);
  const entry = (user: string, id: string, payloadType: 'Call' | 'SMS', minutes: number) =>
    ledgerEntryToItem(client, {
      entry_id: id,
      payload_type: payloadType,
      ...(payloadType === 'Call' ? { phone_number: '+44 7700 900123', duration: 30 } : { thread_id: 't-1' }),
      direction: 'O',
      start_time: at(minutes),
      device_reference: 'dev-c',
      device_user_reference: user,
      outcome: 'Captured',
      reported_at: at(0),
      outcome_at: at(0),
      due_at: at(-1440),
      day: at(minutes).slice(0, 10),
    });
  for (const item of [entry(carol, 'c-1', 'Call', 1), entry(carol, 'c-2', 'Call', 2), entry(carol, 's-1', 'SMS', 3), entry(dave, 'd-1', 'Call', 4)]) await deps.table.put(item);
  await deps.table.put(
    awaitingEntryToItem(client, { payload_reference: ulid(), payload_type: 'Call', payload_time: at(5), device_reference: 'dev-c', direction: 'I', numbers: [], uploaded_at: at(5), device_user_reference: dave, unexpected: true, day: at(5).slice(0, 10) }),
  );

  const payload = ulid();
  const comment = (by: string) =>
    commentToItem(client, { comment_id: ulid(), comment_body: 'noted', raised_by: by, raised_at: at(1), comment_version: 1, is_closed: false, payload_reference: payload, payload_type: 'Call' });
  for (const by of [officerEmail, officerEmail, 'someone@example.com']) await deps.table.put(comment(by));
  await deps.table.put(payloadAuditToItem(client, { payload_reference: payload, action: 'receipt', portal_user: officerEmail, time: at(2) }, ulid()));
  // A download by the officer is audit, not a receipt.
  await deps.table.put(payloadAuditToItem(client, { payload_reference: payload, action: 'download', portal_user: officerEmail, time: at(3) }, ulid()));
  for (let n = 0; n < 3; n += 1) {
    await writeActivityRecord(deps, { trail: 'user', client, entry: { user_id: officer, action: 'payloads:Read', is_allowed: true, activity_time: at(n), roles: ['admin'] } });
  }
  await writeActivityRecord(deps, { trail: 'user', client, entry: { user_id: 'someone-else', action: 'payloads:Read', is_allowed: true, activity_time: at(0) } });
});
afterAll(async () => {
  await tenant.close();
});

const exact = (count: number) => ({ count, capped: false });
/** A caller who sees every group and payload type (the admin role), for calling the counter directly. */
const everything = {
  scope: { unrestricted: true, filter: async <T>(items: readonly T[]) => [...items] },
  payloads: { typeAllowed: () => true, filter: async <T>(items: readonly T[]) => [...items] },
} as unknown as CoverageViewer;

describe('legal hold coverage counts', () => {
  it('answers, per active hold, what it covers; a released hold covers nothing', async () => {
    for (const path of [`DeviceUser/${carol}`, `DeviceUser/${dave}`, `PortalUser/${officer}`]) {
      expect((await tenant.call('PUT', `/account/legal_holds/${path}`, tenant.admin, {})).status).toBe(200);
    }
    const listed = await tenant.call('GET', '/account/legal_holds', tenant.admin);
    expect(listed.status).toBe(200);
    const holds = new Map((listed.body.data as unknown[]).map((row) => LegalHold.parse(row)).map((hold) => [hold.target, hold]));
    expect(holds.get(carol)?.coverage).toEqual({ recordings: exact(3), gps_fixes: exact(4), device_logs: exact(2), ledger_entries: exact(3), devices: exact(0) });
    expect(holds.get(dave)?.coverage).toEqual({ recordings: exact(4), gps_fixes: exact(5), device_logs: exact(3), ledger_entries: exact(4), devices: exact(1) });
    expect(holds.get(officer)?.coverage).toEqual({ comments: exact(2), receipts: exact(1), activity_records: exact(3) });

    expect((await tenant.applied('DELETE', `/account/legal_holds/DeviceUser/${carol}`, tenant.admin)).status).toBe(200);
    const after = await tenant.call('GET', '/account/legal_holds?target_type=DeviceUser', tenant.admin);
    const released = (after.body.data as unknown[]).map((row) => LegalHold.parse(row)).find((hold) => hold.target === carol);
    expect(released?.is_active).toBe(false);
    expect(released?.coverage).toBeUndefined();
  });

  it('stops counting past the cap and says there are more, by Query on DynamoDB Local', async () => {
    const counts = await holdCoverageCounts(tenant.deps, tenant.client, { target: { targetType: 'DeviceUser', target: dave }, viewer: everything, cap: 3 });
    // 4 recordings, 5 fixes and 4 ledger entries are more than 3; 3 log lines and 1 device are exact.
    expect(counts).toEqual({ recordings: { count: 3, capped: true }, gps_fixes: { count: 3, capped: true }, device_logs: exact(3), ledger_entries: { count: 3, capped: true }, devices: exact(1) });
    const officerCounts = await holdCoverageCounts(tenant.deps, tenant.client, { target: { targetType: 'PortalUser', target: officer }, viewer: everything, cap: 2 });
    expect(officerCounts).toEqual({ comments: exact(2), receipts: exact(1), activity_records: { count: 2, capped: true } });
  });

  it('counts only what the caller may see: a role limited to SMS counts no calls, and no receipts or activity', async () => {
    const { client, deps } = tenant;
    await deps.table.put({
      ...keys.role.item(client, 'sms-holds'),
      client,
      role_reference: 'sms-holds',
      permissions: [{ actions_matching: 'legalHolds:*', is_denied: false, is_regex: false, conditions: [] }],
      payload_types: ['SMS'],
      cidr_ranges: [],
      alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
      updated_at: new Date().toISOString(),
    });
    const sms = await tenant.tokenFor('sms-holds');
    const listed = await tenant.call('GET', '/account/legal_holds?active_only=true', sms);
    expect(listed.status).toBe(200);
    const holds = new Map((listed.body.data as unknown[]).map((row) => LegalHold.parse(row)).map((hold) => [hold.target, hold]));
    // Calls are not SMS (carol's one SMS entry is); GPS fixes, log lines and devices carry no payload type, and the
    // role has every group.
    expect(holds.get(dave)?.coverage).toEqual({ recordings: exact(0), gps_fixes: exact(5), device_logs: exact(3), ledger_entries: exact(1), devices: exact(1) });
    // The officer's comments are on a call; receipts and activity records carry no type or group: left out.
    expect(holds.get(officer)?.coverage).toEqual({ comments: exact(0) });
  });

  it('counts nothing of another tenant: the same names there cover nothing here', async () => {
    const other = await createRunTenant('holdcount');
    try {
      const { client, deps } = other;
      await deps.table.put({ ...keys.deviceUser.item(client, dave), client, device_user_reference: dave, is_active: true, services: [], updated_at: new Date().toISOString() });
      expect((await other.call('PUT', `/account/legal_holds/DeviceUser/${dave}`, other.admin, {})).status).toBe(200);
      const listed = await other.call('GET', '/account/legal_holds', other.admin);
      const hold = LegalHold.parse((listed.body.data as unknown[])[0]);
      expect(hold.coverage).toEqual({ recordings: exact(0), gps_fixes: exact(0), device_logs: exact(0), ledger_entries: exact(0), devices: exact(0) });
    } finally {
      await other.close();
    }
  });
});
