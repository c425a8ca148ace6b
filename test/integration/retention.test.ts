import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import { RETENTION_RECORD_TYPES } from '#shared/constants/account.ts';
import { RetentionPolicy } from '#shared/contract/entities/account-data.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { signIn } from './support/sign-in.ts';

/**
 * `GET, PUT account/retention` on the local stack, in a tenant of this run (a policy is tenant-wide, so other test
 * files' tenants are left alone): the defaults of a tenant that never set one, a round trip, every refusal as a
 * `path: message` line, hostile bodies, another tenant's token and a role without the action.
 */
let tenant: RunTenant;
let otherTenant: string;

beforeAll(async () => {
  tenant = await createRunTenant('ret');
  otherTenant = (await signIn('admin@acme.test')).id_token;
});
afterAll(() => tenant.close());

const messagesOf = (body: Record<string, unknown>) => String(body.message).split('\n');

describe('retention policy', () => {
  it('answers the defaults, complete, to a tenant that never set a policy', async () => {
    const { status, body } = await tenant.call('GET', '/account/retention', tenant.admin);
    expect(status).toBe(200);
    const policy = RetentionPolicy.parse(body);
    for (const type of RETENTION_RECORD_TYPES.filter((name) => name !== 'PayloadData')) {
      const entry = policy[type] as { delete_after_days: number; destroy_after_days: number };
      expect(entry.delete_after_days, type).toBeGreaterThan(0);
      expect(entry.destroy_after_days, type).toBeGreaterThan(entry.delete_after_days);
    }
    expect(policy.PayloadData?.map((entry) => entry.payload_type).sort()).toEqual([...PAYLOAD_TYPES].sort());
    // Communications: seven years (MiFID II on request; covers SEC 17a-4 / FINRA's six), counted from the recording.
    expect(policy.PayloadData?.find((entry) => entry.payload_type === 'Call')).toMatchObject({
      delete_after_days: 2557,
      destroy_after_days: 2647,
      retention_timestamp: 'payload_time',
    });
    // The audit of who did what outlives what it audits.
    expect(policy.UserActivityData?.delete_after_days).toBeGreaterThan(2557);
    expect(body.updated_by).toBeUndefined();
  });

  it('stores a policy and reads it back; what the request leaves out keeps its default', async () => {
    const request = {
      GpsData: { delete_after_days: 30, destroy_after_days: 60 },
      AlertData: {},
      PayloadData: [
        { payload_type: 'SMS', delete_after_days: 1826, retention_timestamp: 'receipt_confirmed_at', required_receipts: 1 },
        { payload_type: 'Call', destroy_after_days: 3000, required_transfers: 2, retention_timestamp: 'transferred_at' },
      ],
    };
    const put = await tenant.applied('PUT', '/account/retention', tenant.admin, request);
    expect(put.status).toBe(200);
    // GPS kept 30 days instead of 366 is shorter: applied by the second admin's approval (four eyes), who is named.
    expect(put.body).toMatchObject({ GpsData: request.GpsData, AlertData: {}, updated_by: 'app:second-admin-app' });
    expect(String(put.body.updated_at)).toMatch(/^\d{4}-\d\d-\d\dT/);

    const read = await tenant.call('GET', '/account/retention', tenant.admin);
    expect(read.body).toEqual(put.body);
    const payloads = RetentionPolicy.parse(read.body).PayloadData ?? [];
    expect(payloads).toHaveLength(PAYLOAD_TYPES.length);
    expect(payloads.find((entry) => entry.payload_type === 'SMS')).toEqual({
      payload_type: 'SMS',
      delete_after_days: 1826,
      retention_timestamp: 'receipt_confirmed_at',
      required_receipts: 1,
      required_transfers: 0,
    });
    expect(payloads.find((entry) => entry.payload_type === 'Call')).toMatchObject({ destroy_after_days: 3000, required_transfers: 2 });
    // Left out: the default.
    expect(payloads.find((entry) => entry.payload_type === 'Video')).toMatchObject({ delete_after_days: 2557 });
    expect(read.body.DeviceData).toEqual({ delete_after_days: 2923, destroy_after_days: 3013 });
  });

  it('refuses a wrong policy whole, one path: message line per problem, and keeps the stored one', async () => {
    const before = await tenant.call('GET', '/account/retention', tenant.admin);
    const refused = await tenant.applied('PUT', '/account/retention', tenant.admin, {
      GpsData: { delete_after_days: 30, destroy_after_days: 10 },
      UserActivityData: { delete_after_days: 40_000 },
      PayloadData: [
        { payload_type: 'Call', delete_after_days: 10 },
        { payload_type: 'Call', delete_after_days: 20 },
        { payload_type: 'Diagnostics', required_transfers: 1, retention_timestamp: 'transferred_at' },
      ],
    });
    expect(refused.status).toBe(400);
    expect(messagesOf(refused.body)).toEqual([
      'body.GpsData.destroy_after_days: Must not be before delete_after_days (30): a record is destroyed after it is deleted',
      'body.UserActivityData.delete_after_days: Must be at most 36500 days (100 years)',
      'body.PayloadData.1.payload_type: Call is listed more than once',
      'body.PayloadData.2.required_transfers: Diagnostics is never transferred; must be 0',
      'body.PayloadData.2.retention_timestamp: Diagnostics is never transferred; count from payload_time, processed_at or receipt_confirmed_at',
    ]);
    expect((await tenant.call('GET', '/account/retention', tenant.admin)).body).toEqual(before.body);
  });

  it('answers hostile bodies with 400 lines, never a 5xx', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ GpsData: { delete_after_days: -1 } }, /^body\.GpsData\.delete_after_days: Must be at least 0$/],
      [{ GpsData: { delete_after_days: 1.5 } }, /^body\.GpsData\.delete_after_days: /],
      [{ GpsData: { delete_after_days: '30' } }, /^body\.GpsData\.delete_after_days: /],
      [{ GpsData: { delete_after_days: 1e308 } }, /^body\.GpsData\.delete_after_days: /],
      [{ ChatData: { delete_after_days: 30 } }, /^body\.ChatData: This field is not allowed/],
      [{ GpsData: { delete_after_days: 30, keep: true } }, /^body\.GpsData/],
      [{ PayloadData: [{ payload_type: 'Fax', delete_after_days: 1 }] }, /^body\.PayloadData\.0\.payload_type: Must be one of: /],
      [{ PayloadData: [{ payload_type: 'SMS', retention_timestamp: 'uploaded_at' }] }, /^body\.PayloadData\.0\.retention_timestamp: /],
      [{ PayloadData: [{ payload_type: 'SMS', required_receipts: -2 }] }, /^body\.PayloadData\.0\.required_receipts: /],
      [{ PayloadData: Array.from({ length: 11 }, () => ({ payload_type: 'SMS' })) }, /^body\.PayloadData: /],
      [{ PayloadData: { payload_type: 'SMS' } }, /^body\.PayloadData: /],
      [{ __proto__: { GpsData: {} }, constructor: { prototype: {} } }, /^body/],
      [[], /^body/],
      ['{"GpsData":', /./],
    ];
    for (const [body, line] of cases) {
      const answer = await tenant.applied('PUT', '/account/retention', tenant.admin, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(messagesOf(answer.body).some((text) => line.test(text)), `${JSON.stringify(body)} → ${String(answer.body.message)}`).toBe(true);
    }
  });

  it('gives another tenant nothing, and refuses a role without the action', async () => {
    expect((await tenant.call('GET', '/account/retention', otherTenant)).status).toBe(403);
    expect((await tenant.applied('PUT', '/account/retention', otherTenant, {})).status).toBe(403);
    const reviewerRead = await tenant.call('GET', '/account/retention', tenant.reviewer);
    expect(reviewerRead.status).toBe(200);
    const before = reviewerRead.body;
    const refused = await tenant.applied('PUT', '/account/retention', tenant.reviewer, { GpsData: { delete_after_days: 1 } });
    expect(refused.status).toBe(403);
    expect((await tenant.call('GET', '/account/retention', tenant.admin)).body).toEqual(before);
  });
});
