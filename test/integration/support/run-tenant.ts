import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { keys } from '#core/store/keys.ts';
import { createTestIssuer } from '#core/testing/test-tokens.ts';
import { tenantItems, TENANT_ADMIN_ROLE, TENANT_DEFAULT_ROLE } from '../../../scripts/admin/tenant-items.ts';
import { api, bearer, stack } from './stack.ts';
import { TENANT_STAND_IN_HOST } from './tenant-stand-ins.ts';

/**
 * A tenant of this test run only, provisioned with the same items as any tenant (account, defaults, the admin and
 * reviewer system roles), and a client app per role whose tokens this test signs. Tests that change tenant-wide
 * settings (the retention policy) or walk a tenant's whole list (legal holds) use it, so they neither disturb nor
 * see what other test files do in `demo` at the same time.
 */
export interface RunTenant {
  client: string;
  deps: Dependencies;
  /** A token of a client app holding the tenant's `admin` role (every action). */
  admin: string;
  /** A token of a client app holding the `reviewer` role (reads only). */
  reviewer: string;
  /** A token of a new client app holding `role` (a role the test wrote in the tenant). */
  tokenFor(role: string): Promise<string>;
  /** Calls the tenant's API; the JSON answer and its status. */
  call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /**
   * `call`, and when the answer is a pending change (202: a hold release, a shorter period or a removed rule waits for
   * a second approver), approved by a second full-access app of the tenant; then the approval's status and the thing
   * as it now stands (the policy, or the hold). For tests whose subject is what happens after such a change.
   */
  applied(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /** A token of that second full-access app (the second person of four eyes and of an erasure request's review). */
  secondAdmin(): Promise<string>;
  close(): Promise<void>;
}

/** The role of the second admin that approves pending changes in `applied`. */
export const SECOND_ADMIN_ROLE = 'second-admin';

export async function createRunTenant(prefix: string): Promise<RunTenant> {
  const run = randomUUID().replace(/-/g, '').slice(0, 10);
  const client = `${prefix}-${run}`;
  const deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  const now = new Date().toISOString();
  for (const item of tenantItems(client, `Test ${prefix}`, now, 'seed')) await deps.table.put(item as Parameters<typeof deps.table.put>[0]);

  // One issuer per app: a client app is found by its token's issuer and audience.
  const servers: Server[] = [];
  const token = async (role: string) => {
    const issuer = await createTestIssuer(`https://${role}.${client}.example.com`, `${client}-${role}`);
    const server = createServer((_, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(issuer.jwks));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, TENANT_STAND_IN_HOST, resolve));
    const jwksUri = `http://${TENANT_STAND_IN_HOST}:${(server.address() as AddressInfo).port}/jwks`;
    await deps.table.put({
      ...keys.clientApp.item(client, `${role}-app`),
      client,
      app_reference: `${role}-app`,
      oidc_config: { issuer: issuer.issuer, audience: issuer.audience, jwks_uri: jwksUri },
      roles: [role],
      cidr_ranges: [],
      updated_at: now,
    });
    return issuer.sign({ sub: `${role}-caller` });
  };
  const admin = await token(TENANT_ADMIN_ROLE);
  const reviewer = await token(TENANT_DEFAULT_ROLE);

  // The second admin of four eyes: a copy of the admin role under its own name, so its app is a different actor.
  let secondAdmin: Promise<string> | undefined;
  const approver = () =>
    (secondAdmin ??= (async () => {
      const { entity: _entity, ...adminRole } = keys.role.item(client, TENANT_ADMIN_ROLE);
      const stored = await deps.table.get(adminRole, { consistent: true });
      await deps.table.put({ ...stored, ...keys.role.item(client, SECOND_ADMIN_ROLE), role_reference: SECOND_ADMIN_ROLE, is_system: false });
      return token(SECOND_ADMIN_ROLE);
    })());

  const runTenant: RunTenant = {
    client,
    deps,
    admin,
    reviewer,
    tokenFor: token,
    secondAdmin: approver,
    async call(method, path, callerToken, body) {
      const response = await api(`/api/v1/${client}${path}`, {
        method,
        headers: bearer(callerToken, body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    async applied(method, path, callerToken, body) {
      // `runTenant`, not `this`: the method may be passed around detached from the tenant.
      const answer = await runTenant.call(method, path, callerToken, body);
      if (answer.status !== 202 || typeof answer.body.approval_reference !== 'string') return answer;
      const approved = await runTenant.call('POST', `/approvals/${answer.body.approval_reference}/approve`, await approver());
      if (approved.status !== 200) return approved;
      if (path.startsWith('/account/retention')) return { status: 200, body: (await runTenant.call('GET', '/account/retention', callerToken)).body };
      const [targetType, target] = path.split('/').slice(-2);
      const holds = await runTenant.call('GET', `/account/legal_holds?target_type=${targetType}&limit=100`, callerToken);
      const hold = (holds.body.data as Array<Record<string, unknown>>).find((entry) => entry.target === target);
      return { status: 200, body: hold ?? {} };
    },
    close: async () => {
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
  return runTenant;
}
