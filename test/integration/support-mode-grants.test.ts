import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { localScheduleFile, readScheduleFile } from '#core/adapters/local/local-scheduler.ts';
import { createFixedClock } from '#core/adapters/local/clocks.ts';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import { keys } from '#core/store/keys.ts';
import { createTestIssuer } from '#core/testing/test-tokens.ts';
import { runJob } from '../../lambdas/jobs/jobs.ts';
import { signIn } from './support/sign-in.ts';
import { api, stack } from './support/stack.ts';
import { TENANT_STAND_IN_HOST } from './support/tenant-stand-ins.ts';

/**
 * Grants end everything they started (docs/decisions.md, "Support mode creates nothing that outlives its grant"),
 * end to end on the local stack, replaying the red team's walk: staff approved for the tenant's `admin` role, in
 * support mode, try to register a client app with their own issuer and key set and `roles: ["admin"]`, and an SFTP
 * transfer on `rate(1 minute)` to an address of their choosing. Each such act is refused (403, one line), nothing is
 * stored, no schedule exists; and once the tenant revokes the request, or its approval expires, the support
 * Authorization value is refused. Names carry this run's id, so other files and reruns never meet them.
 */
const CLIENT = 'demo';
const run = randomUUID().replace(/-/g, '').slice(0, 10);
const SECOND = 1000;

let admin: string;
let staff: string;

interface Answer {
  status: number;
  text: string;
  body: Record<string, unknown> & { message?: string; errors?: string[]; actions?: string[]; data?: Array<Record<string, unknown>> };
}

async function send(authorization: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const response = await api(path.startsWith('/internal') ? path : `/api/v1/${CLIENT}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: (text === '' ? {} : JSON.parse(text)) as Answer['body'] };
}
const asAdmin = (method: string, path: string, body?: unknown) => send(`Bearer ${admin}`, method, path, body);

/** Staff ask for the tenant's admin role; the tenant's admin approves until `until`. Answers the request reference. */
async function grantAdminToStaff(until: Date): Promise<string> {
  const asked = await send(`Bearer ${staff}`, 'POST', `/internal/v1/clients/${CLIENT}/supportaccess`, {
    role: 'admin',
    request_description: `Support mode grant check ${run}`,
    requested_expiry: until.toISOString(),
  });
  expect(asked.status, asked.text).toBe(201);
  const reference = String(asked.body.request_reference);
  const approved = await asAdmin('PUT', `/supportaccess/${reference}`, { approval_state: 'approved', approval_expiry: until.toISOString() });
  expect(approved.status, approved.text).toBe(200);
  return reference;
}

const inSupportMode = (reference: string) => `internal-${reference} ${staff}`;

/** The red team's client app: their own issuer and key set, acting as the tenant's admin. */
const theirApp = {
  oidc_config: { issuer: `https://idp-${run}.example.com`, audience: `support-${run}`, jwks_uri: `https://idp-${run}.example.com/jwks` },
  roles: ['admin'],
  cidr_ranges: [],
};

/** The red team's transfer: every recording type, every minute, to their own server. */
const theirTransfer = {
  transfer_type: 'Payload',
  target_type: 'SFTP',
  payload_types: ['Call', 'SMS'],
  schedule: 'rate(1 minute)',
  transfer_file_format: 'Zipped',
  params: { server: `sftp-${run}.example.net`, port: 22, root_directory: '/drop', username: 'them' },
  secured_data: { sftp_password: 'their-password-1' },
};

/** The tenant's own transfer (S3, daily), made by the tenant's admin. */
const tenantTransfer = {
  transfer_type: 'Payload',
  target_type: 'S3',
  payload_types: ['Call'],
  schedule: 'rate(1 day)',
  transfer_file_format: 'Zipped',
  params: { destination: `s3://verity-transfer-destination/${run}/`, iam_role_arn: 'arn:aws:iam::123456789012:role/verity-delivery' },
  is_active: false,
};

const NO_ALERTS = { ops_read: false, ops_write: false, sec_read: false, sec_write: false };

/** Schedules the local Scheduler holds for a configuration of this tenant. */
const schedulesOf = (reference: string) =>
  readScheduleFile(localScheduleFile(stack().dataDir)).filter(
    (schedule) => schedule.target.input.client === CLIENT && schedule.target.input.transfer_config_reference === reference,
  );

/** Every act support mode refuses, tried with `authorization`: each answers 403 with its one line, and nothing changes. */
async function expectEveryLastingActRefused(authorization: string): Promise<void> {
  const refusals: Array<[string, Promise<Answer>, string]> = [
    ['create client app', send(authorization, 'POST', `/account/apps/theirs-${run}`, theirApp), 'create or change client apps'],
    ['change client app', send(authorization, 'PUT', `/account/apps/tenant-${run}`, theirApp), 'create or change client apps'],
    ['create transfer', send(authorization, 'POST', `/transfer_configs/theirs-${run}`, theirTransfer), 'create or change transfer configurations'],
    ['change transfer', send(authorization, 'PUT', `/transfer_configs/tenant-${run}`, { ...theirTransfer, is_active: true }), 'create or change transfer configurations'],
    ['create role', send(authorization, 'PUT', `/roles/theirs-${run}`, { permissions: [{ actions_matching: '*' }], alert_permissions: NO_ALERTS }), 'create, change or delete roles'],
    ['change role', send(authorization, 'PUT', `/roles/tenant-${run}`, { permissions: [{ actions_matching: '*' }], alert_permissions: NO_ALERTS }), 'create, change or delete roles'],
    ['delete role', send(authorization, 'DELETE', `/roles/tenant-${run}`), 'create, change or delete roles'],
    ['assign default role', send(authorization, 'PUT', '/account/defaults', { role: 'admin', cidr_ranges: [] }), "change the account defaults (the default role and the account's CIDR ranges)"],
  ];
  for (const [name, answer, what] of refusals) {
    const { status, body, text } = await answer;
    expect(status, `${name}: ${text}`).toBe(403);
    expect(body.message, name).toBe(`Support mode cannot ${what}; ask the tenant's administrator`);
  }
}

/** Nothing the refused acts tried exists, and what the tenant had is as it was. */
async function expectNothingChanged(defaultsBefore: unknown): Promise<void> {
  expect((await asAdmin('GET', `/account/apps/theirs-${run}`)).status).toBe(404);
  expect((await asAdmin('GET', `/account/apps/tenant-${run}`)).body).toMatchObject({ roles: ['reviewer'], oidc_config: { issuer: 'https://idp.example.com' } });
  expect((await asAdmin('GET', `/transfer_configs/theirs-${run}`)).status).toBe(404);
  expect((await asAdmin('GET', `/transfer_configs/tenant-${run}`)).body).toMatchObject({ target_type: 'S3', is_active: false });
  expect(schedulesOf(`theirs-${run}`)).toEqual([]);
  expect(schedulesOf(`tenant-${run}`)).toEqual([]);
  expect((await asAdmin('GET', `/roles/theirs-${run}`)).status).toBe(404);
  expect((await asAdmin('GET', `/roles/tenant-${run}`)).body).toMatchObject({ permissions: [{ actions_matching: 'devices:List' }] });
  expect((await asAdmin('GET', '/account/defaults')).body).toEqual(defaultsBefore);
}

let defaultsBefore: unknown;

beforeAll(async () => {
  [admin, staff] = (await Promise.all(['admin@demo.test', 'staff@verity.test'].map((email) => signIn(email)))).map((tokens) => tokens.id_token) as [string, string];
  const app = await asAdmin('POST', `/account/apps/tenant-${run}`, {
    oidc_config: { issuer: 'https://idp.example.com', audience: `tenant-${run}`, jwks_uri: 'https://idp.example.com/jwks.json' },
    roles: ['reviewer'],
  });
  expect(app.status, app.text).toBe(201);
  const transfer = await asAdmin('POST', `/transfer_configs/tenant-${run}`, tenantTransfer);
  expect(transfer.status, transfer.text).toBe(201);
  const role = await asAdmin('PUT', `/roles/tenant-${run}`, { permissions: [{ actions_matching: 'devices:List' }], alert_permissions: NO_ALERTS });
  expect(role.status, role.text).toBe(200);
  defaultsBefore = (await asAdmin('GET', '/account/defaults')).body;
}, 60_000);

describe('support mode with the tenant admin role', () => {
  it('refuses every act that would outlive the grant, stores nothing, and ends with the revocation', async () => {
    const reference = await grantAdminToStaff(new Date(Date.now() + 3_600_000));
    const support = inSupportMode(reference);

    // Support mode works: staff read what the admin role reads, and the profile offers none of the refused acts.
    expect((await send(support, 'GET', '/account/apps')).status).toBe(200);
    const profile = await send(support, 'GET', '/profile');
    expect(profile.status, profile.text).toBe(200);
    expect(profile.body.actions).toEqual(expect.arrayContaining(['apps:List', 'apps:Delete', 'transfers:Run', 'roles:List']));
    for (const action of ['apps:Create', 'apps:Update', 'transferConfigs:Create', 'transferConfigs:Update', 'roles:Update', 'roles:Delete', 'account:UpdateDefaults']) {
      expect(profile.body.actions, action).not.toContain(action);
    }

    await expectEveryLastingActRefused(support);
    await expectNothingChanged(defaultsBefore);

    // The tenant revokes: the support Authorization value is refused from then on, for reads too.
    const revoked = await asAdmin('PUT', `/supportaccess/${reference}`, { approval_state: 'revoked', rejection_reason: 'Done' });
    expect(revoked.status, revoked.text).toBe(200);
    const after = await send(support, 'GET', '/account/apps');
    expect(after.status).toBe(403);
    expect(after.body.message).toBe(`Support access denied: request ${reference} is revoked`);
    const create = await send(support, 'POST', `/account/apps/theirs-${run}`, theirApp);
    expect(create.status).toBe(403);
    await expectNothingChanged(defaultsBefore);
  });

  it('refuses the same inside an 8-second grant, and once it expires refuses the support Authorization value (before and after the expiry job)', async () => {
    const until = new Date(Date.now() + 8 * SECOND);
    const reference = await grantAdminToStaff(until);
    const support = inSupportMode(reference);
    expect((await send(support, 'GET', '/account/apps')).status).toBe(200);
    await expectEveryLastingActRefused(support);

    // The grant's end is checked on every call, before the expiry job has run.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, until.getTime() - Date.now()) + 250));
    const expired = await send(support, 'GET', '/account/apps');
    expect(expired.status).toBe(403);
    expect(expired.body.message).toBe(`Support access denied: request ${reference} expired at ${until.toISOString()}`);

    // The expiry job moves the request to expired; the value stays refused.
    const dependencies = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }), { clock: createFixedClock(new Date(until.getTime() + SECOND)) });
    await runJob(dependencies, 'support-access-expiry');
    expect((await asAdmin('GET', `/supportaccess/${reference}`)).body.approval_state).toBe('expired');
    const afterJob = await send(support, 'POST', `/account/apps/theirs-${run}`, theirApp);
    expect(afterJob.status).toBe(403);
    expect(afterJob.body.message).toBe(`Support access denied: request ${reference} is expired`);
    await expectNothingChanged(defaultsBefore);
  }, 30_000);

  it('still lets support mode end what exists: deleting a client app is not refused', async () => {
    const doomed = await asAdmin('POST', `/account/apps/doomed-${run}`, {
      oidc_config: { issuer: 'https://idp.example.com', audience: `doomed-${run}`, jwks_uri: 'https://idp.example.com/jwks.json' },
      roles: ['reviewer'],
    });
    expect(doomed.status, doomed.text).toBe(201);
    const reference = await grantAdminToStaff(new Date(Date.now() + 3_600_000));
    const deleted = await send(inSupportMode(reference), 'DELETE', `/account/apps/doomed-${run}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await asAdmin('GET', `/account/apps/doomed-${run}`)).status).toBe(404);
    await asAdmin('PUT', `/supportaccess/${reference}`, { approval_state: 'revoked' });
  });
});

describe('a client app saved in support mode before support mode was refused it', () => {
  it('is trusted with nothing: its tokens are refused (401) and its key set is never fetched; saved by the tenant, the same app works', async () => {
    const reference = `legacy-${run}`;
    const issuer = await createTestIssuer(`https://${reference}.example.com`, `aud-${reference}`);
    let fetched = 0;
    const server = createServer((_request, response) => {
      fetched += 1;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(issuer.jwks));
    });
    await new Promise<void>((resolve) => server.listen(0, TENANT_STAND_IN_HOST, resolve));
    try {
      const oidc_config = { issuer: issuer.issuer, audience: issuer.audience, jwks_uri: `http://${TENANT_STAND_IN_HOST}:${(server.address() as AddressInfo).port}/jwks` };
      // As such an app was stored: its last writer staff acting under a support request.
      const deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
      await deps.table.put({
        ...keys.clientApp.item(CLIENT, reference),
        client: CLIENT,
        app_reference: reference,
        oidc_config,
        roles: ['admin'],
        cidr_ranges: [],
        updated_by: 'staff:verity-staff',
        updated_by_actor: { reference: 'staff:verity-staff', kind: 'staff', name: 'Sam Staff', support_request: '01J00000000000000000000000' },
        updated_at: new Date().toISOString(),
      });
      const token = `Bearer ${await issuer.sign({ sub: 'their-bot' })}`;
      const refused = await send(token, 'GET', '/account/retention');
      expect(refused.status, refused.text).toBe(401);
      expect(refused.body.message).toBe("Token issuer invalid: the client app was last saved in support mode; the tenant's administrator must save it again");
      expect(fetched).toBe(0);

      // The same app last saved by the tenant's administrator (the API takes https key sets only, so written as the
      // service writes it): its tokens work, so the refusal above was the support-mode save and nothing else.
      await deps.table.put({
        ...keys.clientApp.item(CLIENT, reference),
        client: CLIENT,
        app_reference: reference,
        oidc_config,
        roles: ['admin'],
        cidr_ranges: [],
        updated_by: 'demo-admin',
        updated_by_actor: { reference: 'demo-admin', kind: 'user', name: 'Dana Admin', email: 'admin@demo.test' },
        updated_at: new Date().toISOString(),
      });
      const accepted = await send(token, 'GET', '/account/retention');
      expect(accepted.status, accepted.text).toBe(200);
      expect(fetched).toBeGreaterThan(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
