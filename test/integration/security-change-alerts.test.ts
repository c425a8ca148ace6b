import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccessContext } from '#core/auth/access/create-access-context.ts';
import { buildDependencies } from '#core/composition.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableStore, TransactOperation } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { ClientAppRequest } from '#shared/contract/entities/client-apps.ts';
import { RoleRequest, type Role } from '#shared/contract/entities/roles.ts';
import { TransferConfigRequest } from '#shared/contract/entities/transfers.ts';
import { saveClientApp } from '../../lambdas/access/apps/client-apps.ts';
import { putRole } from '../../lambdas/access/roles/roles.ts';
import { saveTransferConfig } from '../../lambdas/transfers/configs/transfer-configs.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * A sec alert for every change that lets something act on the tenant later, by anyone (docs/decisions.md, "Security
 * alerts"): a client app created or replaced, a transfer destination created or changed, a role that grants more than
 * before. Each names who by name and from where, and is written in the change's own transaction: where the alert
 * cannot be written, the change is not made. Alerts are read back as the portal reads them; keys carry this run's id.
 */
const CLIENT = 'demo';
const run = randomUUID().replace(/-/g, '').slice(0, 10);
/** The list's date filter format (`1999-01-01-165000`, UTC), a few seconds before this file started. */
const since = new Date(Date.now() - 5000).toISOString().replace(/\.\d+Z$/, '').replace('T', '-').replace(/:/g, '');
/** Who and from where, as the alerts word the tenant's admin calling the local stack over loopback. */
const BY_ADMIN = 'Dana Admin \\(admin@demo\\.test\\) from (?:127\\.0\\.0\\.1|::1|::ffff:127\\.0\\.0\\.1)';
const NO_ALERTS = { ops_read: false, ops_write: false, sec_read: false, sec_write: false };

let admin: string;
let deps: Dependencies;

interface Alert {
  alert_key?: string;
  alert_subject: string;
  alert_severity: string;
  alert_message: string;
  first_occurrence: string;
}

async function call(method: string, path: string, body?: unknown) {
  const response = await api(`/api/v1/${CLIENT}${path}`, {
    method,
    headers: bearer(admin, body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** The sec alerts of the tenant since this file started whose key is `key`, oldest first. */
async function alertsKeyed(key: string): Promise<Alert[]> {
  const all: Alert[] = [];
  let cursor: string | undefined;
  do {
    const query = `alert_scope=sec&from=${encodeURIComponent(since)}&limit=100${cursor ? `&last_key=${encodeURIComponent(cursor)}` : ''}`;
    const page = await call('GET', `/alerts?${query}`);
    expect(page.status, page.text).toBe(200);
    all.push(...(page.body.data as Alert[]));
    cursor = page.body.last_key as string | undefined;
  } while (cursor !== undefined);
  return all.filter((alert) => alert.alert_key === key).sort((a, b) => a.first_occurrence.localeCompare(b.first_occurrence) || a.alert_message.localeCompare(b.alert_message));
}

const app = (issuer: string, roles: string[]) => ({
  oidc_config: { issuer, audience: `aud-${run}`, jwks_uri: `${issuer}/jwks.json` },
  roles,
});

const s3Transfer = (overrides: Record<string, unknown> = {}) => ({
  transfer_type: 'Payload',
  target_type: 'S3',
  payload_types: ['Call'],
  schedule: 'rate(1 day)',
  transfer_file_format: 'Zipped',
  params: { destination: `s3://verity-transfer-destination/${run}/`, iam_role_arn: 'arn:aws:iam::123456789012:role/verity-delivery' },
  is_active: false,
  ...overrides,
});

beforeAll(async () => {
  admin = (await signIn('admin@demo.test')).id_token;
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
});

describe('client app changes', () => {
  it('raise a High alert for each registration and replacement, naming the issuer, key set, roles, who and from where', async () => {
    const reference = `watched-${run}`;
    expect((await call('POST', `/account/apps/${reference}`, app('https://idp.example.com', ['reviewer']))).status).toBe(201);
    expect((await call('PUT', `/account/apps/${reference}`, app('https://other-idp.example.com', ['admin', 'reviewer']))).status).toBe(200);
    // Refused (unknown role): nothing changed, nothing raised.
    expect((await call('PUT', `/account/apps/${reference}`, app('https://idp.example.com', [`ghost-${run}`]))).status).toBe(400);

    const found = await alertsKeyed(`client-app-changed:${reference}`);
    expect(found.map((alert) => [alert.alert_subject, alert.alert_severity])).toEqual([
      ['Client app created', 'High'],
      ['Client app replaced', 'High'],
    ]);
    expect(found[0]?.alert_message).toMatch(
      new RegExp(`^Client app "${reference}" was created by ${BY_ADMIN}: tokens of issuer https://idp\\.example\\.com \\(key set https://idp\\.example\\.com/jwks\\.json\\) act with roles "reviewer"$`),
    );
    expect(found[1]?.alert_message).toMatch(new RegExp(`^Client app "${reference}" was replaced by ${BY_ADMIN}: tokens of issuer https://other-idp\\.example\\.com .* act with roles "admin", "reviewer"$`));
  });
});

describe('transfer destination changes', () => {
  it('raise a High alert when a destination is created or changed, not when only the schedule or payload types change', async () => {
    const reference = `destination-${run}`;
    const created = await call('POST', `/transfer_configs/${reference}`, s3Transfer());
    expect(created.status, created.text).toBe(201);
    const sameAddress = await call('PUT', `/transfer_configs/${reference}`, s3Transfer({ schedule: 'rate(12 hours)', payload_types: ['Call', 'SMS'] }));
    expect(sameAddress.status, sameAddress.text).toBe(200);
    const elsewhere = await call(
      'PUT',
      `/transfer_configs/${reference}`,
      s3Transfer({ is_active: true, params: { destination: `s3://somewhere-else/${run}/`, iam_role_arn: 'arn:aws:iam::210987654321:role/theirs' } }),
    );
    expect(elsewhere.status, elsewhere.text).toBe(200);

    const found = await alertsKeyed(`transfer-destination:${reference}`);
    expect(found.map((alert) => [alert.alert_subject, alert.alert_severity])).toEqual([
      ['Transfer destination created', 'High'],
      ['Transfer destination changed', 'High'],
    ]);
    expect(found[0]?.alert_message).toMatch(
      new RegExp(`^Transfer configuration "${reference}" was created, delivering to s3://verity-transfer-destination/${run}/ as role arn:aws:iam::123456789012:role/verity-delivery, inactive for now, by ${BY_ADMIN}$`),
    );
    expect(found[1]?.alert_message).toMatch(
      new RegExp(`^Transfer configuration "${reference}" now delivers to s3://somewhere-else/${run}/ as role arn:aws:iam::210987654321:role/theirs, on schedule rate\\(1 day\\), by ${BY_ADMIN}$`),
    );
    expect((await call('DELETE', `/transfer_configs/${reference}`)).status).toBe(200);
  });
});

describe('role changes that grant more', () => {
  it('are High and say how; a narrowing is Low', async () => {
    const role = `widening-${run}`;
    const body = (permissions: unknown[]) => ({ permissions, payload_types: [], alert_permissions: NO_ALERTS });
    expect((await call('PUT', `/roles/${role}`, body([{ actions_matching: 'devices:*' }, { actions_matching: 'devices:Deactivate', is_denied: true }]))).status).toBe(200);
    expect((await call('PUT', `/roles/${role}`, body([{ actions_matching: 'devices:List' }, { actions_matching: 'devices:Deactivate', is_denied: true }]))).status).toBe(200);
    expect((await call('PUT', `/roles/${role}`, body([{ actions_matching: 'devices:List' }, { actions_matching: 'apps:Create' }]))).status).toBe(200);
    expect((await call('DELETE', `/roles/${role}`)).status).toBe(200);

    const found = await alertsKeyed(`role-changed:${role}`);
    expect(found.map((alert) => [alert.alert_subject, alert.alert_severity])).toEqual([
      ['Role created, granting more', 'High'],
      ['Role replaced', 'Low'],
      ['Role replaced, granting more', 'High'],
      ['Role deleted', 'Low'],
    ]);
    expect(found[2]?.alert_message).toMatch(
      new RegExp(
        `^Role "${role}" was replaced by ${BY_ADMIN}; it grants more than before: It allows apps:Create beyond what it allowed before\\. It no longer denies actions matching "devices:Deactivate"\\.$`,
      ),
    );
  });
});

/** The table, except that a transaction writing a sec alert fails, as when the alert cannot be stored. */
function alertsUnwritable(table: TableStore): TableStore {
  const writesAlert = (operation: TransactOperation) => operation.kind === 'put' && operation.item.alert_scope === 'sec' && operation.item.alert_reference !== undefined;
  return new Proxy(table, {
    get(target, property, receiver) {
      if (property !== 'transactWrite') return Reflect.get(target, property, receiver) as unknown;
      return async (operations: readonly TransactOperation[]) => {
        if (operations.some(writesAlert)) throw new Error('alert write failed');
        return target.transactWrite(operations);
      };
    },
  });
}

describe('a change whose alert cannot be written', () => {
  it('is not made: no client app, no role, no transfer configuration or schedule', async () => {
    const broken: Dependencies = { ...deps, table: alertsUnwritable(deps.table) };
    // A caller acting from 198.51.100.7 with every action on calls: the alerts name that address.
    const calls = { role_reference: 'calls', permissions: [{ actions_matching: '*' }], payload_types: ['Call'], cidr_ranges: [], is_system: false } as unknown as Role;
    const access = createAccessContext({ roles: [calls], ip: '198.51.100.7', isClientApp: false });
    const changer = (action: string) => tenantCaller(broken, CLIENT, access, { action });
    const appRef = `unreported-${run}`;
    await expect(saveClientApp(changer('apps:Create'), appRef, ClientAppRequest.parse(app('https://idp.example.com', ['reviewer'])), 'create')).rejects.toThrow(
      'alert write failed',
    );
    expect(await deps.table.get(keys.clientApp.item(CLIENT, appRef), { consistent: true })).toBeUndefined();

    const roleRef = `unreported-${run}`;
    await expect(putRole(changer('roles:Update'), roleRef, RoleRequest.parse({ permissions: [{ actions_matching: 'devices:List' }], alert_permissions: NO_ALERTS }))).rejects.toThrow(
      'alert write failed',
    );
    expect(await deps.table.get(keys.role.item(CLIENT, roleRef), { consistent: true })).toBeUndefined();

    const transferRef = `unreported-${run}`;
    await expect(saveTransferConfig(changer('transferConfigs:Create'), transferRef, TransferConfigRequest.parse(s3Transfer({ is_active: true })), 'create')).rejects.toThrow(
      'alert write failed',
    );
    expect(await deps.table.get(keys.transferConfig.key(CLIENT, transferRef), { consistent: true })).toBeUndefined();
    expect((await call('GET', `/transfer_configs/${transferRef}`)).status).toBe(404);
  });
});
