import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#core/store/keys.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * A client written from the spec, on the running stack: the legal hold request names its `target` and `target_type`
 * (spec point 7); the API takes them, and refuses a body that names another target than its path. Every other body the spec names is checked against the router in
 * lambdas/core/http/spec-bodies.test.ts.
 */
let tenant: RunTenant;
beforeAll(async () => {
  tenant = await createRunTenant('spec-bodies');
  const now = new Date().toISOString();
  for (const user of ['du-alice', 'du-bram']) {
    await tenant.deps.table.put({ ...keys.deviceUser.item(tenant.client, user), client: tenant.client, device_user_reference: user, is_active: true, services: [], updated_at: now });
  }
});
afterAll(async () => tenant.close());

describe("the spec's request bodies on the running stack", () => {
  it("places a legal hold from the spec's body (target, target_type)", async () => {
    const placed = await tenant.call('PUT', '/account/legal_holds/DeviceUser/du-alice', tenant.admin, { target: 'du-alice', target_type: 'DeviceUser' });
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ target: 'du-alice', target_type: 'DeviceUser', is_active: true });
  });

  it('refuses a body naming another target than its path, with one line per field, and holds nothing', async () => {
    const refused = await tenant.call('PUT', '/account/legal_holds/DeviceUser/du-bram', tenant.admin, { target: 'du-alice', target_type: 'PortalUser' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      ["body.target_type: Must equal the path's target_type (DeviceUser) or be left out", "body.target: Must equal the path's target (du-bram) or be left out"].join('\n'),
    );
    const list = await tenant.call('GET', '/account/legal_holds', tenant.admin);
    expect((list.body.data as Array<{ target: string }>).map((hold) => hold.target)).toEqual(['du-alice']);
  });
});
