import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ACTION_NAME, actionsOf, callAction, ENDPOINT_GROUPS, pathParamNames } from './endpoint.ts';
import { ACTION_DESCRIPTIONS, ACTION_NAMES } from './actions.ts';
import { ACTION_CATALOGUE, ENDPOINTS, findEndpoint, TENANT_ACTION_CATALOGUE } from './registry.ts';
import { formatIssues } from './messages.ts';

/** Bodies chosen by a discriminator: an unknown field alone is refused for its missing discriminator first. */
const UNION_BODIES = new Set(['client.transfer-configs.create', 'client.transfer-configs.update', 'admin.supervision.items.update', 'admin.supervision.items.bulk']);

const count = (surface: string) => ENDPOINTS.filter((endpoint) => endpoint.surface === surface).length;

describe('endpoint registry', () => {
  it('declares the 110 spec endpoints (51 admin, 38 client, 21 internal), our additions and the device API', () => {
    // The spec names no endpoint for the portal's terms guard, the audit chain's state nor a transfer's files page by
    // page, nor a retention preview or the disposal records, nor a migration's submission, start, detail and row
    // results, nor a recording's waveform: ours (docs/decisions.md).
    const additions = ['admin.terms.get', 'admin.terms.accept', 'getActivityChainState'];
    const clientAdditions = [
      'client.transfers.files',
      'client.account.retention.preview',
      'client.disposals.list',
      'client.migrations.create',
      'client.migrations.start',
      'client.migrations.get',
      'client.migrations.results',
      'client.payloads.waveform',
    ];
    // Supervision (review queues, policies, reports) is ours too: FINRA 3110's evidence of review.
    const supervision = ENDPOINTS.filter((endpoint) => endpoint.group === 'supervision').map((endpoint) => endpoint.id);
    expect(supervision).toHaveLength(12);
    // Capture completeness (the phones' ledgers reconciled against recordings) is ours as well.
    const completeness = ENDPOINTS.filter((endpoint) => endpoint.group === 'completeness').map((endpoint) => endpoint.id);
    expect(completeness).toHaveLength(4);
    // Cases (matters) and their productions share one group: hold, collect and hand over a defined set of records.
    const cases = ENDPOINTS.filter((endpoint) => endpoint.group === 'cases').map((endpoint) => endpoint.id);
    expect(cases).toEqual(expect.arrayContaining(['client.cases.list', 'client.cases.create', 'client.cases.get', 'client.cases.update', 'client.cases.close']));
    // Record integrity's additions: the activity trail exported as one verifiable file, and the key it verifies with.
    const integrity = ['admin.activityExports.create', 'admin.activityExports.read', 'admin.auditSigningKey.read', 'admin.history.list', 'admin.integrity.list'];
    expect(integrity.map((id) => findEndpoint(id)?.surface)).toEqual(integrity.map(() => 'admin'));
    // ...and the internal console's per-client fixity figures.
    const internalIntegrity = ['internal.clients.integrity.list'];
    expect(internalIntegrity.map((id) => findEndpoint(id)?.surface)).toEqual(['internal']);
    // ...and four eyes: changes that shorten a record's life wait for a second approver.
    const approvals = ['client.approvals.list', 'client.approvals.read', 'client.approvals.approve', 'client.approvals.reject'];
    expect(approvals.map((id) => findEndpoint(id)?.surface)).toEqual(approvals.map(() => 'client'));
    // ...and erasure requests (GDPR Art 17): recorded, decided, reviewed by a second person, run, reported.
    const erasure = ['client.erasure-requests.create', 'client.erasure-requests.list', 'client.erasure-requests.get', 'client.erasure-requests.review'];
    expect(erasure.map((id) => findEndpoint(id)?.surface)).toEqual(erasure.map(() => 'client'));
    expect(additions.map((id) => findEndpoint(id)?.surface)).toEqual(['admin', 'admin', 'admin']);
    expect(clientAdditions.map((id) => findEndpoint(id)?.surface)).toEqual(clientAdditions.map(() => 'client'));
    expect(count('admin')).toBe(51 + additions.length + supervision.length + integrity.length);
    expect(count('client')).toBe(38 + clientAdditions.length + completeness.length + cases.length + approvals.length + erasure.length);
    expect(count('internal')).toBe(21 + internalIntegrity.length);
    expect(count('admin') + count('client') + count('internal') - additions.length - clientAdditions.length - supervision.length - completeness.length - cases.length - integrity.length - internalIntegrity.length - approvals.length - erasure.length).toBe(110);
    expect(count('device')).toBe(12);
  });

  it('never declares two endpoints on the same method and full path', () => {
    const keys = ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.fullPath}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives every endpoint a unique id, a well-formed action and a known group', () => {
    const ids = ENDPOINTS.map((endpoint) => endpoint.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const endpoint of ENDPOINTS) {
      expect(endpoint.action, endpoint.id).toMatch(ACTION_NAME);
      expect(ENDPOINT_GROUPS, endpoint.id).toContain(endpoint.group);
      // The audit chain's state is named by its operation id, as the portal's audit screen was agreed against.
      if (endpoint.id !== 'getActivityChainState') expect(endpoint.id.startsWith(`${endpoint.surface}.`), endpoint.id).toBe(true);
    }
  });

  it('has a params schema for every {param} of the path but client, and nothing else', () => {
    for (const endpoint of ENDPOINTS) {
      // The router checks `{client}` itself on every surface (the internal console's /clients/{client}/... too).
      const expected = pathParamNames(endpoint.path).filter((name) => name !== 'client');
      expect(Object.keys(endpoint.params.shape).sort(), endpoint.id).toEqual(expected.sort());
      expect(endpoint.params.safeParse({ client: 'acme' }).success, endpoint.id).toBe(false);
    }
  });

  it('leaves only the spec-named endpoints (and device authentication) unauthenticated', () => {
    const publicOnes = ENDPOINTS.filter((endpoint) => endpoint.auth === 'public').map((endpoint) => endpoint.id).sort();
    expect(publicOnes).toEqual(
      [
        'admin.account.metadata',
        'admin.identity.exchange',
        'admin.identity.url',
        'device.authenticate',
        'internal.identity.exchange',
        'internal.identity.verify',
      ].sort(),
    );
    for (const endpoint of ENDPOINTS) {
      if (endpoint.surface === 'client') expect(endpoint.auth, endpoint.id).toBe('client-app');
      if (endpoint.surface === 'device' && endpoint.id !== 'device.authenticate') expect(endpoint.auth).toBe('device');
      if (endpoint.surface === 'device') expect(endpoint.group).toBe('device-api');
    }
  });

  it('uses strict query objects: a misspelt parameter is rejected', () => {
    for (const endpoint of ENDPOINTS) {
      const result = endpoint.query.safeParse({ definitely_not_a_param: '1' });
      expect(result.success, endpoint.id).toBe(false);
      if (!result.success) expect(formatIssues(result.error, 'query')).toContain('query.definitely_not_a_param: This field is not allowed.');
    }
  });

  it('uses strict bodies: an unknown field is rejected', () => {
    for (const endpoint of ENDPOINTS.filter((candidate) => candidate.body)) {
      const result = (endpoint.body as z.ZodType).safeParse({ definitely_not_a_field: 1 });
      expect(result.success, endpoint.id).toBe(false);
      if (!result.success && !UNION_BODIES.has(endpoint.id)) {
        expect(formatIssues(result.error, 'body'), endpoint.id).toContain('body.definitely_not_a_field: This field is not allowed.');
      }
    }
  });

  it('coerces list query strings and bounds the page size to 1..100 (default 50)', () => {
    const list = findEndpoint('admin.devices.list');
    expect(list).toBeDefined();
    expect(list?.query.parse({})).toMatchObject({ limit: 50, result_type: 'page' });
    expect(list?.query.parse({ limit: '100', active_only: 'true' })).toMatchObject({ limit: 100, active_only: true });
    for (const bad of [{ limit: '0' }, { limit: '101' }, { limit: 'ten' }, { limit: '1.5' }, { active_only: 'yes' }, { active_only: '1' }]) {
      expect(list?.query.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('applies the known filters with their defaults', () => {
    expect(findEndpoint('client.payloads.list')?.query.parse({})).toMatchObject({ date_filter_type: 'payload_time' });
    expect(findEndpoint('client.payloads.list')?.query.safeParse({ date_filter_type: 'uploaded_at' }).success).toBe(false);
    expect(findEndpoint('client.payloads.data')?.query.parse({})).toEqual({ action: 'download' });
    expect(findEndpoint('client.payloads.data')?.query.parse({ action: 'play' })).toEqual({ action: 'play' });
    expect(findEndpoint('admin.alerts.list')?.query.parse({ date_filter: 'first_occurrence', from: '1999-01-01', to: '1999-01-01-165000' })).toMatchObject({
      date_filter: 'first_occurrence',
    });
    expect(findEndpoint('admin.alerts.list')?.query.safeParse({ from: '01/01/1999' }).success).toBe(false);
    expect(findEndpoint('admin.metrics.get')?.params.safeParse({ scope: 'Summary' }).success).toBe(true);
    expect(findEndpoint('admin.metrics.get')?.params.safeParse({ scope: 'Hourly' }).success).toBe(false);
    expect(findEndpoint('admin.roles.list')?.query.parse({ result_type: 'total' })).toMatchObject({ result_type: 'total' });
  });

  it('parses the bulk data query as 1 to 100 unique comma-delimited references', () => {
    const query = findEndpoint('client.data.bulk')?.query;
    const ref = (n: number) => `01HZX${String(n).padStart(21, '0')}`;
    expect(query?.parse({ payload_references: `${ref(1)},${ref(2)}` })).toEqual({ payload_references: [ref(1), ref(2)], action: 'download' });
    expect(query?.safeParse({ payload_references: `${ref(1)},${ref(1)}` }).success).toBe(false);
    expect(query?.safeParse({ payload_references: '' }).success).toBe(false);
    const many = Array.from({ length: 101 }, (_, i) => ref(i)).join(',');
    expect(query?.safeParse({ payload_references: many }).success).toBe(false);
  });

  it('exchange needs either a code with redirect_uri, or a refresh token', () => {
    const query = findEndpoint('admin.identity.exchange')?.query;
    const code = '123e4567-e89b-12d3-a456-426614174000';
    expect(query?.safeParse({ code, redirect_uri: 'http://localhost:3000/sign-in' }).success).toBe(true);
    expect(query?.safeParse({ refresh_token: 'abc' }).success).toBe(true);
    expect(query?.safeParse({}).success).toBe(false);
    expect(query?.safeParse({ code }).success).toBe(false);
    expect(query?.safeParse({ code: 'short', redirect_uri: 'http://x' }).success).toBe(false);
  });

  it('finds endpoints by id', () => {
    expect(findEndpoint('admin.devices.list')?.fullPath).toBe('/api/v1/{client}/devices');
    expect(findEndpoint('internal.clients.licenses.put')?.fullPath).toBe('/internal/v1/clients/{client}/licenses');
    expect(findEndpoint('device.authenticate')?.fullPath).toBe('/device/v1/authenticate');
    expect(findEndpoint('nope')).toBeUndefined();
  });

  it('exports a sorted, unique, fully described action catalogue', () => {
    const actions = ACTION_CATALOGUE.map((entry) => entry.action);
    expect(actions).toEqual([...new Set(actions)].sort());
    expect(new Set(actions)).toEqual(new Set(ENDPOINTS.flatMap(actionsOf)));
    for (const action of actions) expect(ACTION_DESCRIPTIONS[action], action).toBeTruthy();
  });

  it("chooses the data endpoints' action by the query's action: play and view need payloads:Play, download payloads:Download", () => {
    for (const id of ['client.payloads.data', 'client.data.bulk']) {
      const endpoint = findEndpoint(id);
      if (endpoint === undefined) throw new Error(id);
      const actionOf = (query: Record<string, string>) => callAction(endpoint, endpoint.query.parse({ ...(id === 'client.data.bulk' ? { payload_references: 'A'.repeat(26) } : {}), ...query }));
      expect([actionOf({ action: 'play' }), actionOf({ action: 'view' }), actionOf({ action: 'download' }), actionOf({})], id).toEqual([
        'payloads:Play',
        'payloads:Play',
        'payloads:Download',
        'payloads:Download',
      ]);
    }
    // The role editor offers it (the tenant catalogue), described.
    expect(TENANT_ACTION_CATALOGUE.find((entry) => entry.action === 'payloads:Play')?.description).toMatch(/^Play calls, interviews and videos/);
    // An endpoint without a choice, or a query the map does not name, needs the endpoint's own action.
    expect(callAction({ action: 'devices:List' }, { action: 'play' })).toBe('devices:List');
    expect(callAction({ action: 'x:Y', actionByQuery: { field: 'action', actions: { a: 'x:A' } } }, { action: 'toString' })).toBe('x:Y');
  });

  it('lists the same action names without the registry, for the access context of every function', () => {
    expect(ACTION_NAMES).toEqual(ACTION_CATALOGUE.map((entry) => entry.action));
  });

  it('offers tenant roles the portal and client-app actions only, never the device or internal ones', () => {
    const tenant = TENANT_ACTION_CATALOGUE.map((entry) => entry.action);
    expect(tenant).toEqual(expect.arrayContaining(['devices:List', 'roles:Update', 'payloads:Read']));
    expect(tenant.filter((action) => action.startsWith('device:') || action.startsWith('internal:'))).toEqual([]);
    // Every action some admin or client endpoint names is there.
    for (const endpoint of ENDPOINTS.filter((candidate) => candidate.surface === 'admin' || candidate.surface === 'client')) {
      for (const action of actionsOf(endpoint)) expect(tenant, endpoint.id).toContain(action);
    }
    expect(ACTION_CATALOGUE.find((entry) => entry.action === 'device:Authenticate')?.surfaces).toEqual(['device']);
  });
});
