import { describe, expect, it } from 'vitest';
import { AccountDefaults } from '#shared/contract/entities/account.ts';
import { Role } from '#shared/contract/entities/roles.ts';
import { TENANT_ACTION_CATALOGUE } from '#shared/contract/registry.ts';
import { allowedActions } from '#shared/permissions/evaluate.ts';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import { DEMO_PASSWORD, demoAccounts, findAccountBySub, verifyCredentials } from './accounts.ts';
import { seedItems, seedMarkerKey } from './seed.ts';

describe('demo accounts', () => {
  it('verifies the demo password, case-insensitively on the email', () => {
    expect(verifyCredentials('admin@demo.test', DEMO_PASSWORD)?.client).toBe('demo');
    expect(verifyCredentials('  Staff@Verity.TEST ', DEMO_PASSWORD)).toMatchObject({ client: 'admin', groups: ['staff'] });
  });

  it('refuses wrong passwords, unknown emails and hostile input', () => {
    expect(verifyCredentials('admin@demo.test', 'verity-demo-1')).toBeUndefined();
    expect(verifyCredentials('admin@demo.test', '')).toBeUndefined();
    expect(verifyCredentials('nobody@demo.test', DEMO_PASSWORD)).toBeUndefined();
    expect(verifyCredentials("' OR 1=1 --", DEMO_PASSWORD)).toBeUndefined();
    expect(verifyCredentials('admin@demo.test', 'x'.repeat(10_000))).toBeUndefined();
  });

  it('never hands out password material', () => {
    const account = verifyCredentials('admin@demo.test', DEMO_PASSWORD) as unknown as Record<string, unknown>;
    expect(Object.keys(account).sort()).toEqual(['client', 'email', 'firstName', 'groups', 'sub', 'surname']);
    expect(JSON.stringify(demoAccounts())).not.toContain(DEMO_PASSWORD);
  });

  it('returns copies, so callers cannot change the accounts', () => {
    const first = findAccountBySub('demo-admin');
    first?.groups.push('staff');
    expect(findAccountBySub('demo-admin')?.groups).toEqual(['admin']);
  });
});

describe('seed items', () => {
  const items = seedItems('2025-01-01T00:00:00.000Z');

  it('keys every item by its client and tags its entity', () => {
    for (const item of [...items, seedMarkerKey()]) {
      expect(String(item[TABLE_KEYS.partitionKey])).toMatch(/^C#(demo|acme|admin)#/);
      expect(typeof item[TABLE_KEYS.sortKey]).toBe('string');
    }
    for (const item of items) expect(item[TABLE_KEYS.entityAttribute]).toBeTruthy();
  });

  it('accepts no terms of use, so every demo account meets the terms page on its first sign-in', () => {
    expect(items.filter((item) => item.entity === 'TermsAcceptance' || String(item.pk).endsWith('#TERMS_ACCEPTANCES'))).toEqual([]);
  });

  it('has no duplicate keys', () => {
    const keys = items.map((item) => `${item[TABLE_KEYS.partitionKey]}|${item[TABLE_KEYS.sortKey]}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('seeds both tenants and every demo account with its roles', () => {
    expect(items.filter((item) => item.entity === 'Account' && item.sk === 'ACCOUNT').map((item) => item.client)).toEqual(['demo', 'acme']);
    const users = items.filter((item) => item.entity === 'PortalUser');
    expect(users.map((user) => user.email).sort()).toEqual(demoAccounts().map((account) => account.email).sort());
    expect(users.find((user) => user.email === 'reviewer@demo.test')).toMatchObject({ client: 'demo', roles: ['reviewer'] });
  });
});

describe('seeded access', () => {
  const items = seedItems('2025-01-01T00:00:00.000Z');
  const roleOf = (client: string, reference: string) =>
    Role.parse(items.find((item) => item.entity === 'Role' && item.client === client && item.role_reference === reference));

  it('writes contract roles: admin allows everything, reviewer reviews (reads, plays, comments, confirms receipts), staff in the provider client', () => {
    for (const client of ['demo', 'acme']) {
      const admin = roleOf(client, 'admin');
      const reviewer = roleOf(client, 'reviewer');
      expect(admin.is_system && reviewer.is_system).toBe(true);
      const actions = TENANT_ACTION_CATALOGUE;
      expect(allowedActions([admin], actions)).toHaveLength(actions.length);
      const readable = allowedActions([reviewer], actions);
      expect(readable).toEqual(expect.arrayContaining(['roles:List', 'roles:Read', 'alerts:Summary', 'devices:ReadHistory', 'account:ReadDefaults']));
      expect(readable).toEqual(expect.arrayContaining(['payloads:Play', 'comments:Create', 'payloads:ConfirmReceipt']));
      // A reviewer takes no copy and changes no setting: the only change verbs it holds are a comment and a receipt.
      expect(readable).not.toContain('payloads:Download');
      expect(readable.filter((action) => /:(Update|Delete|Create|Decide|Send|Clear|Dismiss|Deactivate|Run|Restore|Import|Release)$/.test(action))).toEqual(['comments:Create']);
      expect(reviewer.description).toMatch(/plays, views, comments and confirms receipts; downloads nothing and changes no setting/);
    }
    expect(roleOf('admin', 'staff').is_system).toBe(true);
  });

  it('gives each tenant account defaults with the reviewer role and no CIDR limit', () => {
    for (const client of ['demo', 'acme']) {
      const defaults = items.find((item) => item.pk === `C#${client}#ACCOUNT` && item.sk === 'SETTING#DEFAULTS');
      expect(AccountDefaults.parse(defaults)).toMatchObject({ role: 'reviewer', cidr_ranges: [] });
    }
  });
});
