import { beforeAll, describe, expect, it } from 'vitest';
import { pathParamNames, type Endpoint } from '#shared/contract/endpoint.ts';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { mapPool, rawRequest, type RawResponse } from './support/raw-request.ts';
import { signIn } from './support/sign-in.ts';
import { stack } from './support/stack.ts';

/**
 * Tenant isolation, read from the registry so every endpoint added later is covered without editing this file:
 * a token of tenant `acme` reads, changes and learns nothing of tenant `demo`.
 *
 * 1. demo's admin creates demo-only records (through the API where it is built) whose names carry a marker.
 * 2. acme's admin calls EVERY endpoint on demo's paths: each answer is a 4xx and never mentions the marker.
 * 3. acme's admin calls every endpoint on its OWN paths with demo's references: the marker never appears.
 * 4. demo's readable state (every built list without path parameters) is the same before and after.
 */

const MARKER = 'demoonly';
/** Values for path parameters that name demo-only records; anything else gets a harmless sample. */
const DEMO_REFERENCES: Record<string, string> = {
  role_reference: `${MARKER}-role`,
  group_reference: `${MARKER}-group`,
  tag_key: `${MARKER}-tag`,
  app_reference: `${MARKER}-app`,
};
const SAMPLE_REFERENCE = '01HZX3K5J8Q9W2E4R6T7Y8V9AB';

/** Valid bodies for the writes this test knows; other writes get `{}` (a 400 also changes nothing). */
const BODIES: Record<string, unknown> = {
  'admin.roles.put': {
    permissions: [{ actions_matching: '*' }],
    alert_permissions: { ops_read: true, ops_write: true, sec_read: true, sec_write: true },
    description: `${MARKER} role`,
  },
  'admin.tags.put': { tag_values: [`${MARKER}-value`], is_required: false },
  'admin.groups.put': { tags: [{ tag_key: `${MARKER}-tag`, tag_value: `${MARKER}-value` }] },
  'admin.account.defaults.put': { role: `${MARKER}-role`, cidr_ranges: [] },
  'admin.apps.create': {
    oidc_config: { issuer: 'https://issuer.example.com', audience: `${MARKER}-audience`, jwks_uri: 'https://issuer.example.com/jwks' },
    roles: [`${MARKER}-role`],
  },
};
BODIES['admin.apps.update'] = BODIES['admin.apps.create'];

const tenantEndpoints = (ENDPOINTS as readonly Endpoint[]).filter((endpoint) => endpoint.fullPath.includes('{client}'));

function pathFor(endpoint: Endpoint, client: string): string {
  return endpoint.fullPath.replace(/\{([a-z_]+)\}/g, (_, name: string) =>
    encodeURIComponent(name === 'client' ? client : (DEMO_REFERENCES[name] ?? SAMPLE_REFERENCE)),
  );
}

function call(endpoint: Endpoint, client: string, token: string): Promise<RawResponse> {
  const body = endpoint.body === undefined ? undefined : JSON.stringify(BODIES[endpoint.id] ?? {});
  return rawRequest(stack().apiUrl, {
    method: endpoint.method,
    path: pathFor(endpoint, client),
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body }),
  });
}

/** The user-activity log and the state of its chain: both move with every authenticated call. */
function isActivityLogView(endpoint: (typeof tenantEndpoints)[number]): boolean {
  return endpoint.fullPath.endsWith('/activities') || endpoint.fullPath.endsWith('/activities/chain');
}

/** The transfer runs: a run other test files started moves on by itself (its job ends it), whoever calls meanwhile. */
function isTransferRunList(endpoint: (typeof tenantEndpoints)[number]): boolean {
  return endpoint.id === 'client.transfers.list';
}

/** Built lists that take no path parameter but the client: what demo's admin can see of demo. */
const snapshotEndpoints = tenantEndpoints.filter(
  (endpoint) =>
    endpoint.method === 'GET' &&
    endpoint.surface !== 'internal' &&
    pathParamNames(endpoint.fullPath).length === 1 &&
    // The activity log and its chain's state grow with every call, demo's own snapshot calls included: the log is
    // checked on its own below. Acme's calls on the transfer runs are refused like every other call (the test's refusal check).
    !isActivityLogView(endpoint) &&
    !isTransferRunList(endpoint),
);

async function snapshotOfDemo(token: string): Promise<Record<string, string>> {
  const answers = await mapPool(snapshotEndpoints, 3, async (endpoint) => [endpoint.id, (await call(endpoint, 'demo', token)).text] as const);
  return Object.fromEntries(answers);
}

let demoToken: string;
let acmeToken: string;
let built: Endpoint[];

beforeAll(async () => {
  const [demo, acme] = await Promise.all([signIn('admin@demo.test'), signIn('admin@acme.test')]);
  demoToken = demo.id_token;
  acmeToken = acme.id_token;
  // Demo-only records, in dependency order (a group's tag before the group), where those endpoints are built.
  for (const id of ['admin.roles.put', 'admin.tags.put', 'admin.groups.put', 'admin.apps.create']) {
    const endpoint = tenantEndpoints.find((candidate) => candidate.id === id);
    if (endpoint) await call(endpoint, 'demo', demoToken);
  }
  // "Built" = demo's own admin does not get 501 for it.
  const answers = await mapPool(tenantEndpoints, 3, async (endpoint) => {
    const safe = endpoint.method === 'GET' ? await call(endpoint, 'demo', demoToken) : undefined;
    return { endpoint, built: safe === undefined ? undefined : safe.status !== 501 };
  });
  const builtGets = new Set(answers.filter((answer) => answer.built).map((answer) => answer.endpoint.group));
  // A write counts as built when its group serves reads (the writes are not sent by demo here: no side effects).
  built = answers.filter((answer) => answer.built ?? builtGets.has(answer.endpoint.group)).map((answer) => answer.endpoint);
});

describe('tenant isolation across the whole registry', () => {
  it('acme can neither read nor change anything on demo paths, and learns nothing', async () => {
    const before = await snapshotOfDemo(demoToken);
    const failures = await mapPool(tenantEndpoints, 3, async (endpoint) => {
      const response = await call(endpoint, 'demo', acmeToken);
      const where = `${endpoint.id} ${endpoint.method} ${pathFor(endpoint, 'demo')}`;
      // Public endpoints (sign-in URL, code exchange, account metadata) answer anyone by design; they must still
      // show nothing of demo's records.
      const refused = response.status >= 400 && response.status < 500;
      if (endpoint.auth !== 'public' && !refused) return `${where}: status ${response.status}`;
      if (response.text.includes(MARKER)) return `${where}: answer mentions demo's records: ${response.text.slice(0, 200)}`;
      return undefined;
    });
    expect(failures.filter(Boolean)).toEqual([]);
    expect(await snapshotOfDemo(demoToken)).toEqual(before);
  });

  it("acme's own paths never show demo's records, whatever references it asks for", async () => {
    const failures = await mapPool(built, 3, async (endpoint) => {
      // acme's own activity log rightly records acme's own guesses (demo's references in its path parameters).
      if (endpoint.method !== 'GET' || isActivityLogView(endpoint)) return undefined;
      const response = await call(endpoint, 'acme', acmeToken);
      if (response.text.includes(MARKER)) return `${endpoint.id}: ${response.status} ${response.text.slice(0, 200)}`;
      return undefined;
    });
    expect(failures.filter(Boolean)).toEqual([]);
  });

  it("demo's activity log holds nothing made by acme's principal", async () => {
    const activities = tenantEndpoints.find((endpoint) => endpoint.fullPath.endsWith('/activities'));
    if (activities === undefined || !built.includes(activities)) return;
    const response = await call(activities, 'demo', demoToken);
    expect(response.status).toBe(200);
    expect(response.text).not.toContain('acme-admin');
  });

  it('reports what it covered', () => {
    // Every endpoint with a {client} is exercised for refusal; `built` grows as capabilities land.
    expect(tenantEndpoints.length).toBeGreaterThan(90);
    console.info(`isolation: ${tenantEndpoints.length} tenant endpoints refused to acme; ${built.length} built endpoints probed for leaks`);
  });
});
