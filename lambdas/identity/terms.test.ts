import { describe, expect, it } from 'vitest';
import { CURRENT_TERMS } from '#shared/constants/terms.ts';
import { TermsStatus } from '#shared/contract/entities/common.ts';
import { findEndpoint } from '#shared/contract/registry.ts';
import type { AccessContext } from '#core/auth/access/access-context.ts';
import { SELF_SERVICE_ACTIONS } from '#core/auth/access/resolve-access.ts';
import { linkPending } from '../audit/public.ts';
import { verifyChain } from '../audit/public.ts';
import type { KeyService } from '#core/ports/key-service.ts';
import type { UserPrincipal } from '#core/auth/principal.ts';
import { ConflictError } from '#core/errors.ts';
import { keys } from '#core/store/keys.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import { createMemoryTable, type MemoryTable } from '#core/testing/memory-table.ts';
import { STALE_TERMS_MESSAGE, acceptTerms, actingUser, termsStatus } from './terms.ts';

/** The action of `PUT terms` (the contract's `admin.terms.accept`): the acceptance's audit record carries it. */
const ACCEPT_TERMS_ACTION = 'profile:AcceptTerms';

/** No checkpoint is written here, so verification never asks the key service. */
const unusedKeys = {} as KeyService;
const terms = { valid_from: '2026-11-01T00:00:00.000Z', termsAndConditions: 'Be lawful.\n\nTell people.' };
let now = new Date('2026-11-20T09:00:00.000Z');
const clock = { now: () => now };

const principal = (overrides: Partial<UserPrincipal> = {}): UserPrincipal => ({
  kind: 'user',
  subject: 'demo-admin',
  email: 'admin@demo.test',
  client: 'demo',
  groups: ['admin'],
  tokenIssuer: 'http://localhost:1/oidc',
  ...overrides,
});

/** Only what the terms read; cast because the interface grows with the authz work. */
const access = (overrides: Partial<AccessContext> = {}): AccessContext =>
  ({ roles: [], roleReferences: ['admin'], payloadTypes: [], isClientApp: false, ip: '10.0.0.1', ...overrides }) as AccessContext;

/** Who calls: the signed-in user and their resolved access. */
interface Who {
  principal: UserPrincipal;
  access: AccessContext;
}
const who = (user: Partial<UserPrincipal> = {}, rights: Partial<AccessContext> = {}): Who => ({ principal: principal(user), access: access(rights) });
const tenantUser = who();

/** The caller of the terms endpoints in `client`, as the route builds it. */
const as = (deps: { table: MemoryTable; clock?: typeof clock }, client: string, { principal, access }: Who, requestId?: string) =>
  tenantCaller(deps, client, access, { action: ACCEPT_TERMS_ACTION, principal, ...(requestId === undefined ? {} : { requestId }) });

async function activities(table: MemoryTable, client: string) {
  const page = await table.query(keys.activityChain.records('user', client));
  return page.items;
}

describe('terms of use', () => {
  it('are declared as self-service endpoints, and the current terms fit the contract', () => {
    expect(findEndpoint('admin.terms.accept')?.action).toBe(ACCEPT_TERMS_ACTION);
    expect(SELF_SERVICE_ACTIONS.has(ACCEPT_TERMS_ACTION)).toBe(true);
    expect(SELF_SERVICE_ACTIONS.has(findEndpoint('admin.terms.get')?.action ?? '')).toBe(true);
    expect(new Date(CURRENT_TERMS.valid_from).toISOString()).toBe(CURRENT_TERMS.valid_from);
    expect(CURRENT_TERMS.termsAndConditions.split('\n\n').length).toBeGreaterThanOrEqual(3);
    expect(findEndpoint('admin.terms.accept')?.body?.safeParse({ valid_from: CURRENT_TERMS.valid_from }).success).toBe(true);
  });

  it('say "not accepted" before acceptance, with the current terms', async () => {
    const table = createMemoryTable();
    const status = await termsStatus(as({ table }, 'demo', tenantUser), terms);
    expect(status).toEqual({ ...terms, accepted: false });
    expect(TermsStatus.parse(status)).toEqual(status);
    expect(await termsStatus(as({ table }, 'demo', tenantUser))).toMatchObject({ valid_from: CURRENT_TERMS.valid_from, accepted: false });
  });

  it('record an acceptance once, keyed by tenant, user and version, with its audit record in the same chain', async () => {
    const table = createMemoryTable();
    now = new Date('2026-11-20T09:00:00.000Z');
    const accepted = await acceptTerms(as({ table, clock }, 'demo', tenantUser, 'req-1'), terms.valid_from, terms);
    expect(accepted).toEqual({ ...terms, accepted: true, accepted_at: '2026-11-20T09:00:00.000Z' });
    const item = await table.get(keys.termsAcceptance.item('demo', { reference: 'demo-admin', staff: false }, terms.valid_from));
    expect(item).toMatchObject({ entity: 'TermsAcceptance', user_reference: 'demo-admin', is_staff: false, valid_from: terms.valid_from, email: 'admin@demo.test' });

    // Accepting again (later, in another spelling of the same instant) keeps the first time and audits nothing more.
    now = new Date('2026-11-21T10:00:00.000Z');
    expect(await acceptTerms(as({ table, clock }, 'demo', tenantUser), '2026-11-01 00:00:00', terms)).toMatchObject({
      accepted: true,
      accepted_at: '2026-11-20T09:00:00.000Z',
    });
    const records = await activities(table, 'demo');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      user_id: 'demo-admin',
      user_ip: '10.0.0.1',
      roles: ['admin'],
      action: 'profile:AcceptTerms',
      is_allowed: true,
      activity_time: '2026-11-20T09:00:00.000Z',
      parameters: { valid_from: terms.valid_from },
      request_id: 'req-1',
    });
    expect(await linkPending({ table, clock }, 'user', 'demo')).toMatchObject({ linked: 1 });
    expect(await verifyChain({ table, keys: unusedKeys }, 'demo', 'user', { signingKeyId: 'none' })).toMatchObject({ whole: true, linked: 1, pending: 0 });
    expect(await termsStatus(as({ table }, 'demo', tenantUser), terms)).toMatchObject({ accepted: true, accepted_at: '2026-11-20T09:00:00.000Z' });
  });

  it('refuse terms that are not the current ones with 409, writing nothing', async () => {
    const table = createMemoryTable();
    for (const stale of ['2020-01-01T00:00:00.000Z', '2026-11-01T00:00:01Z']) {
      const refusal = acceptTerms(as({ table, clock }, 'demo', tenantUser), stale, terms);
      await expect(refusal).rejects.toBeInstanceOf(ConflictError);
      await expect(refusal).rejects.toThrow(STALE_TERMS_MESSAGE);
    }
    expect(table.items.size).toBe(0);
  });

  it('ask again when new terms are published: an older acceptance does not count', async () => {
    const table = createMemoryTable();
    await acceptTerms(as({ table, clock }, 'demo', tenantUser), terms.valid_from, terms);
    const newer = { valid_from: '2027-01-01T00:00:00.000Z', termsAndConditions: 'New.' };
    expect(await termsStatus(as({ table }, 'demo', tenantUser), newer)).toEqual({ ...newer, accepted: false });
    await expect(acceptTerms(as({ table, clock }, 'demo', tenantUser), terms.valid_from, newer)).rejects.toBeInstanceOf(ConflictError);
  });

  it('keep tenants, users and support-mode staff apart', async () => {
    const table = createMemoryTable();
    await acceptTerms(as({ table, clock }, 'demo', tenantUser), terms.valid_from, terms);
    const reviewer = who({ subject: 'demo-reviewer' });
    const acme = who({ subject: 'demo-admin', client: 'acme' });
    expect((await termsStatus(as({ table }, 'demo', reviewer), terms)).accepted).toBe(false);
    expect((await termsStatus(as({ table }, 'acme', acme), terms)).accepted).toBe(false);

    // Staff acting in demo through a support request: the staff member accepts, in demo, for themselves.
    const staff = who(
      { subject: 'demo-admin', client: 'admin', supportReference: '01HZX3K5J8Q9W2E4R6T7Y8V9AB' },
      { supportReference: '01HZX3K5J8Q9W2E4R6T7Y8V9AB', roleReferences: ['support'] },
    );
    expect(actingUser(staff.principal, staff.access)).toMatchObject({ reference: 'demo-admin', staff: true, supportReference: '01HZX3K5J8Q9W2E4R6T7Y8V9AB' });
    // Even a staff subject equal to a tenant user's does not inherit that user's acceptance.
    expect((await termsStatus(as({ table }, 'demo', staff), terms)).accepted).toBe(false);
    await acceptTerms(as({ table, clock }, 'demo', staff), terms.valid_from, terms);
    expect((await termsStatus(as({ table }, 'demo', staff), terms)).accepted).toBe(true);
    const staffItem = await table.get(keys.termsAcceptance.item('demo', { reference: 'demo-admin', staff: true }, terms.valid_from));
    expect(staffItem).toMatchObject({ is_staff: true, support_reference: '01HZX3K5J8Q9W2E4R6T7Y8V9AB' });
    const records = await activities(table, 'demo');
    expect(records.find((record) => record.support_reference !== undefined)).toMatchObject({ user_id: 'demo-admin', roles: ['support'], support_reference: '01HZX3K5J8Q9W2E4R6T7Y8V9AB' });
  });

  it('record one acceptance and one audit record when the same user accepts concurrently', async () => {
    const table = createMemoryTable();
    const answers = await Promise.all(Array.from({ length: 6 }, () => acceptTerms(as({ table, clock }, 'demo', tenantUser), terms.valid_from, terms)));
    expect(new Set(answers.map((answer) => answer.accepted_at)).size).toBe(1);
    expect(await activities(table, 'demo')).toHaveLength(1);
  });

  it('write neither the acceptance nor its record when the audit chain cannot be written', async () => {
    const table = createMemoryTable();
    table.beforeTransact = () => {
      throw new Error('table down');
    };
    await expect(acceptTerms(as({ table, clock }, 'demo', tenantUser), terms.valid_from, terms)).rejects.toThrow('table down');
    table.beforeTransact = undefined;
    expect((await termsStatus(as({ table }, 'demo', tenantUser), terms)).accepted).toBe(false);
    expect(await activities(table, 'demo')).toHaveLength(0);
  });
});
