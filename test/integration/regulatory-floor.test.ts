import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetentionPolicy } from '#shared/contract/entities/account-data.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * The regulatory floor through `PUT account/retention` on the local stack, in a tenant of this run: the rules a tenant
 * is under are stored with its policy, and a period shorter than the strictest chosen rule's minimum is refused whole,
 * one `path: message` line per offending type naming the rule.
 */
let tenant: RunTenant;

beforeAll(async () => {
  tenant = await createRunTenant('floor');
});
afterAll(() => tenant.close());

const messagesOf = (body: Record<string, unknown>) => String(body.message).split('\n');
const callEntry = (deleteAfter: number) => ({ payload_type: 'Call', delete_after_days: deleteAfter, destroy_after_days: deleteAfter + 90 });

describe('regulatory floor', () => {
  it('is no rule until a tenant chooses one, and any period is accepted then', async () => {
    const read = await tenant.call('GET', '/account/retention', tenant.admin);
    expect(RetentionPolicy.parse(read.body).regulatory_rules).toEqual([]);
    const put = await tenant.applied('PUT', '/account/retention', tenant.admin, { PayloadData: [callEntry(30)] });
    expect(put.status).toBe(200);
  });

  it('refuses a period below a chosen rule, naming the rule and its days, and keeps the stored policy', async () => {
    const before = await tenant.call('GET', '/account/retention', tenant.admin);
    const refused = await tenant.applied('PUT', '/account/retention', tenant.admin, {
      regulatory_rules: ['SEC_17a_4'],
      PayloadData: [callEntry(1000), { payload_type: 'Diagnostics', delete_after_days: 10 }],
      LegacyMigrationData: { destroy_after_days: 400 },
      GpsData: { delete_after_days: 30 },
    });
    expect(refused.status).toBe(400);
    expect(messagesOf(refused.body)).toEqual([
      'body.LegacyMigrationData.destroy_after_days: SEC 17a-4 keeps communications at least 1,096 days',
      'body.PayloadData.0.delete_after_days: SEC 17a-4 keeps communications at least 1,096 days',
    ]);
    expect((await tenant.call('GET', '/account/retention', tenant.admin)).body).toEqual(before.body);
  });

  it('judges several rules by the strictest, beside the policy\'s other problems', async () => {
    const refused = await tenant.applied('PUT', '/account/retention', tenant.admin, {
      regulatory_rules: ['SEC_17a_4', 'FINRA_4511', 'MIFID_II'],
      PayloadData: [callEntry(1500)],
      SupervisionData: { delete_after_days: 2000, destroy_after_days: 1990 },
    });
    expect(refused.status).toBe(400);
    expect(messagesOf(refused.body)).toEqual([
      'body.SupervisionData.destroy_after_days: Must not be before delete_after_days (2000): a record is destroyed after it is deleted',
      'body.SupervisionData.delete_after_days: FINRA 4511 keeps supervisory reviews at least 2,192 days',
      'body.PayloadData.0.delete_after_days: MiFID II keeps communications at least 1,827 days',
    ]);
  });

  it('stores the rules with the policy; a later save that leaves them out keeps them and is judged by them', async () => {
    const put = await tenant.applied('PUT', '/account/retention', tenant.admin, { regulatory_rules: ['MIFID_II'], PayloadData: [callEntry(1827)] });
    expect(put.status).toBe(200);
    expect(put.body.regulatory_rules).toEqual(['MIFID_II']);

    const kept = await tenant.applied('PUT', '/account/retention', tenant.admin, { PayloadData: [callEntry(2000)] });
    expect(kept.status).toBe(200);
    expect(kept.body.regulatory_rules).toEqual(['MIFID_II']);

    const refused = await tenant.applied('PUT', '/account/retention', tenant.admin, { PayloadData: [callEntry(1826)] });
    expect(refused.status).toBe(400);
    expect(messagesOf(refused.body)).toEqual(['body.PayloadData.0.delete_after_days: MiFID II keeps communications at least 1,827 days']);
    // Kept without end is above every floor.
    expect((await tenant.applied('PUT', '/account/retention', tenant.admin, { PayloadData: [{ payload_type: 'Call' }] })).status).toBe(200);
    expect(RetentionPolicy.parse((await tenant.call('GET', '/account/retention', tenant.admin)).body).regulatory_rules).toEqual(['MIFID_II']);
  });

  it('answers hostile rule lists with 400 lines, never a 5xx', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ regulatory_rules: ['SEC_17a_5'] }, /^body\.regulatory_rules\.0: Must be one of: /],
      [{ regulatory_rules: 'SEC_17a_4' }, /^body\.regulatory_rules: /],
      [{ regulatory_rules: ['MIFID_II', 'MIFID_II'] }, /^body\.regulatory_rules: Each rule at most once$/],
      [{ regulatory_rules: ['SEC_17a_4', 'FINRA_4511', 'MIFID_II', 'SEC_17a_4'] }, /^body\.regulatory_rules: /],
      [{ regulatory_rules: [null] }, /^body\.regulatory_rules\.0: /],
    ];
    for (const [body, line] of cases) {
      const { status, body: answer } = await tenant.applied('PUT', '/account/retention', tenant.admin, body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(messagesOf(answer)[0], JSON.stringify(body)).toMatch(line);
    }
  });
});
