import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobActor } from '#core/auth/actor.ts';
import type { ItemKey, TableItem } from '#core/ports/table-store.ts';
import { accountDefaultsKey } from '#core/store/entities/account-defaults.ts';
import { migrationConfigKey } from '#core/store/entities/migration-config.ts';
import { keys } from '#core/store/keys.ts';
import type { SupervisionHit } from '#shared/contract/entities/supervision.ts';
import { linkPending } from '../../lambdas/audit/trail/sequencer.ts';
import { LOCAL_AUDIT_SIGNING_KEY_ID } from '../../lambdas/audit/trail/signing-key.ts';
import { verifyChain } from '../../lambdas/audit/trail/verify-chain.ts';
import { recordHits } from '../../lambdas/supervision/public.ts';
import { retentionRunTo } from './support/retention-run.ts';
import { SECRET_CHANGED, SECRET_UNCHANGED } from '../../lambdas/transfers/configs/transfer-configs.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * Record versions of the settings and review records: transfer configurations (never their secrets), client apps,
 * account defaults, migration settings, supervision policies and review items. Each change or delete through the API
 * (and a job's new hit on a review item) keeps the version it replaced, exactly as it was stored; the history endpoint
 * answers them newest first under the record's own read rules; the audit chain covers their digests.
 */
let tenant: RunTenant;
let other: RunTenant;
let admin: string;
let otherAdmin: string;
let historyOnly: string;
let southReviewer: string;

const ZIP_PASSWORD = 'zip-Plaintext-Secret-1';
const SFTP_PASSWORD = 'sftp-Plaintext-Secret-2';
const SFTP_PASSWORD_2 = 'sftp-Plaintext-Secret-3';

type Body = Record<string, unknown> & { data?: Array<Record<string, unknown>>; message?: string };
const as = async (token: string, method: string, path: string, body?: unknown, on: RunTenant = tenant) => {
  const answer = await on.call(method, path, token, body);
  return { status: answer.status, body: answer.body as Body };
};
const ok = async (token: string, method: string, path: string, body?: unknown) => {
  const answer = await as(token, method, path, body);
  expect(answer.status, `${method} ${path}: ${answer.body.message}`).toBeLessThan(300);
  return answer.body;
};
const raw = async (key: ItemKey) => (await tenant.deps.table.get(key, { consistent: true })) as TableItem;
const history = (entity: string, reference: string, token = admin, on: RunTenant = tenant) => as(token, 'GET', `/history/${entity}/${encodeURIComponent(reference)}`, undefined, on);
/** The records of a record's versions, newest first. */
const versionsOf = async (entity: string, reference: string) => {
  const answer = await history(entity, reference);
  expect(answer.status).toBe(200);
  return answer.body.data ?? [];
};
/** Every version item in the record's partition, as stored. */
const storedVersions = async (key: ItemKey) => (await tenant.deps.table.query({ ...keys.recordVersion.listOf(key), consistent: true })).items;

const role = (reference: string, permissions: unknown[]) => ({
  ...keys.role.item(tenant.client, reference),
  client: tenant.client,
  role_reference: reference,
  permissions,
  payload_types: ['SMS', 'Call'],
  cidr_ranges: [],
  alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
  updated_at: new Date().toISOString(),
});

beforeAll(async () => {
  tenant = await createRunTenant('ver');
  other = await createRunTenant('verx');
  const { client, deps } = tenant;
  await deps.table.put(role('history-only', [{ actions_matching: 'activities:List', is_denied: false, is_regex: false }]));
  await deps.table.put(
    role('south-reviewer', [
      { actions_matching: 'supervision:*', is_denied: false, is_regex: false, conditions: [{ names_matching: 'south' }] },
      { actions_matching: 'activities:List', is_denied: false, is_regex: false },
    ]),
  );
  admin = await portalTokenFor(client, { sub: `${client}-admin`, email: `admin@${client}.test`, groups: ['admin'] });
  historyOnly = await portalTokenFor(client, { sub: 'history-only-1', email: `history@${client}.test`, groups: ['history-only'] });
  southReviewer = await portalTokenFor(client, { sub: 'south-1', email: `south@${client}.test`, groups: ['south-reviewer'] });
  otherAdmin = await portalTokenFor(other.client, { sub: `${other.client}-admin`, email: `admin@${other.client}.test`, groups: ['admin'] });
});

afterAll(async () => {
  await tenant?.close();
  await other?.close();
});

const sftpConfig = (overrides: Record<string, unknown> = {}) => ({
  transfer_type: 'Payload',
  target_type: 'SFTP',
  payload_types: ['Call', 'SMS'],
  schedule: 'cron(30 1 * * ? *)',
  transfer_file_format: 'ZippedWithPassword',
  params: { server: 'sftp.demo.invalid', port: 2222, root_directory: '/inbox', username: 'demo-sftp' },
  ...overrides,
});

/** The stored item as a version keeps it: each sealed password it has as the marker the change earned. */
const lessSecrets = (item: TableItem, markers: { zip: string; sftp: string }) => ({
  ...item,
  ...('sealed_zip_password' in item ? { sealed_zip_password: markers.zip } : {}),
  ...('sealed_sftp_password' in item ? { sealed_sftp_password: markers.sftp } : {}),
});

describe('record versions of settings and review records', () => {
  const sealed: string[] = [];

  it('keeps each earlier state of a transfer configuration, never its secrets, with a marker saying which changed', async () => {
    const ref = 'nightly-versions';
    const key = keys.transferConfig.key(tenant.client, ref);
    await ok(admin, 'POST', `/transfer_configs/${ref}`, sftpConfig({ secured_data: { zip_password: ZIP_PASSWORD, sftp_password: SFTP_PASSWORD } }));
    const first = await raw(key);
    // The SFTP password replaced, the zip password kept.
    await ok(admin, 'PUT', `/transfer_configs/${ref}`, sftpConfig({ schedule: 'rate(6 hours)', secured_data: { sftp_password: SFTP_PASSWORD_2 } }));
    const second = await raw(key);
    // Nothing secret given: both kept.
    await ok(admin, 'PUT', `/transfer_configs/${ref}`, sftpConfig({ schedule: 'rate(6 hours)', is_active: false }));
    const third = await raw(key);
    await ok(admin, 'DELETE', `/transfer_configs/${ref}`);
    for (const item of [first, second, third]) sealed.push(...['sealed_zip_password', 'sealed_sftp_password'].map((field) => (item[field] as { wrapped: string }).wrapped));

    const versions = await versionsOf('transfer-config', ref);
    expect(versions.map((version) => version.change)).toEqual(['deleted', 'updated', 'updated']);
    expect(versions.map((version) => version.record)).toEqual([
      lessSecrets(third, { zip: SECRET_CHANGED, sftp: SECRET_CHANGED }),
      lessSecrets(second, { zip: SECRET_UNCHANGED, sftp: SECRET_UNCHANGED }),
      lessSecrets(first, { zip: SECRET_UNCHANGED, sftp: SECRET_CHANGED }),
    ]);
    expect(versions[0]).toMatchObject({ kind: 'transfer-config', reference: ref, replaced_by: `${tenant.client}-admin`, replaced_by_actor: { email: `admin@${tenant.client}.test` } });
    // No secret, sealed or plain, anywhere in what the versions stored.
    const kept = JSON.stringify(await storedVersions(key));
    for (const secret of [...sealed, ZIP_PASSWORD, SFTP_PASSWORD, SFTP_PASSWORD_2]) expect(kept).not.toContain(secret);
    expect((await as(admin, 'GET', '/transfer_configs')).status).toBe(200);
  });

  it('keeps each earlier state of a client app, and its last one when deleted; the apps list reads only apps', async () => {
    const ref = 'versions-app';
    const app = (roles: string[]) => ({ oidc_config: { issuer: 'https://idp.example.com', audience: 'verity-api', jwks_uri: 'https://idp.example.com/jwks.json' }, roles });
    await ok(admin, 'POST', `/account/apps/${ref}`, app(['reviewer']));
    const first = await raw(keys.clientApp.item(tenant.client, ref));
    await ok(admin, 'PUT', `/account/apps/${ref}`, app(['reviewer', 'admin']));
    const second = await raw(keys.clientApp.item(tenant.client, ref));
    const list = await as(admin, 'GET', '/account/apps?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.data?.every((one) => typeof one.app_reference === 'string')).toBe(true);
    await ok(admin, 'DELETE', `/account/apps/${ref}`);
    const versions = await versionsOf('client-app', ref);
    expect(versions.map((version) => [version.change, version.record])).toEqual([
      ['deleted', second],
      ['updated', first],
    ]);
  });

  it('keeps each earlier state of the account defaults and of the migration settings', async () => {
    const { client } = tenant;
    const seeded = await raw(accountDefaultsKey(client));
    // A range that still admits this test's own calls (127.0.0.1).
    await ok(admin, 'PUT', '/account/defaults', { cidr_ranges: ['127.0.0.0/8', '10.0.0.0/8'] });
    const firstDefaults = await raw(accountDefaultsKey(client));
    await ok(admin, 'PUT', '/account/defaults', { cidr_ranges: [], role: 'reviewer', completeness_grace_hours: 12 });
    const secondDefaults = await raw(accountDefaultsKey(client));
    await ok(admin, 'PUT', '/account/defaults', { cidr_ranges: [] });
    expect((await versionsOf('account-defaults', client)).map((version) => version.record)).toEqual([secondDefaults, firstDefaults, ...(seeded === undefined ? [] : [seeded])]);

    const switches = (payloads: boolean) => ({ disable_onboarding: false, disable_offboarding: true, disable_payloads: payloads });
    await ok(admin, 'PUT', '/account/migration', switches(false));
    const firstSwitches = await raw(migrationConfigKey(client));
    await ok(admin, 'PUT', '/account/migration', switches(true));
    const secondSwitches = await raw(migrationConfigKey(client));
    await ok(admin, 'PUT', '/account/migration', switches(false));
    expect((await versionsOf('migration-settings', client)).map((version) => version.record)).toEqual([secondSwitches, firstSwitches]);
  });

  it('keeps each earlier state of a supervision policy, and its last one when deleted', async () => {
    const ref = 'versions-lexicon';
    const key = keys.supervisionPolicy.item(tenant.client, ref);
    const lexicon = (terms: string[], description?: string) => ({ kind: 'Lexicon', terms, scope: { payload_types: ['SMS'] }, ...(description === undefined ? {} : { description }) });
    await ok(admin, 'POST', `/supervision/policies/${ref}`, lexicon(['guarantee'], 'First wording'));
    const first = await raw(key);
    // The description dropped: the version still has it.
    await ok(admin, 'PUT', `/supervision/policies/${ref}`, lexicon(['guarantee', 'promise']));
    const second = await raw(key);
    expect(second.description).toBeUndefined();
    await ok(admin, 'PUT', `/supervision/policies/${ref}`, lexicon(['promise']));
    const third = await raw(key);
    expect((await as(admin, 'GET', '/supervision/policies')).status).toBe(200);
    await ok(admin, 'DELETE', `/supervision/policies/${ref}`);
    const versions = await versionsOf('supervision-policy', ref);
    expect(versions.map((version) => [version.change, version.record])).toEqual([
      ['deleted', third],
      ['updated', second],
      ['updated', first],
    ]);
    expect(versions[2]?.record).toMatchObject({ description: 'First wording', policy_version: 1 });
  });

  const itemRef = `01JVERSIONS${Date.now().toString(36).toUpperCase().padStart(15, '0')}`;
  const hit = (policy: string): SupervisionHit => ({ policy_reference: policy, kind: 'Lexicon', term: 'guarantee', field: 'text', matches: [{ start: 0, end: 9 }], raised_at: new Date().toISOString() });
  const raise = (policy: string, reference = itemRef) =>
    recordHits(tenant.deps, tenant.client, {
      recording: { payload_reference: reference, payload_type: 'SMS', payload_time: new Date(Date.now() - 3_600_000).toISOString(), device_reference: 'dev-1', group: 'north' },
      hits: [hit(policy)],
      reviewDays: 7,
      actor: jobActor('payload-processing'),
    });

  it('keeps each earlier state of a review item: who claimed and closed it, and the closed item a new hit reopened', async () => {
    const key = keys.supervisionItem.key(tenant.client, itemRef);
    await raise('first-policy');
    const raised = await raw(key);
    await ok(admin, 'PUT', `/supervision/items/${itemRef}`, { action: 'claim' });
    const claimed = await raw(key);
    await ok(admin, 'PUT', `/supervision/items/${itemRef}`, { action: 'close', disposition: 'No issue' });
    const closed = await raw(key);
    // A job's new hit reopens it: the closed item (its disposition, who closed it) is kept, naming the job.
    expect(await raise('second-policy')).toMatchObject({ raised: true });
    expect((await raw(key)).state).toBe('Open');

    const versions = await versionsOf('supervision-item', itemRef);
    expect(versions.map((version) => version.record)).toEqual([closed, claimed, raised]);
    expect(versions[0]).toMatchObject({ replaced_by: 'job:payload-processing', replaced_by_actor: { kind: 'job' } });
    expect(versions[0]?.record).toMatchObject({ state: 'Closed', disposition: 'No issue', closed_by: `${tenant.client}-admin` });
    expect(versions[1]).toMatchObject({ replaced_by: `${tenant.client}-admin` });
  });

  it('answers a record\'s history only under its own read rules: another tenant 404, no read permission 403, another group 404', async () => {
    const { client } = tenant;
    const records: Array<[string, string]> = [
      ['transfer-config', 'nightly-versions'],
      ['client-app', 'versions-app'],
      ['account-defaults', client],
      ['migration-settings', client],
      ['supervision-policy', 'versions-lexicon'],
      ['supervision-item', itemRef],
    ];
    for (const [entity, reference] of records) {
      expect((await history(entity, reference)).status, entity).toBe(200);
      // The other tenant's admin, on its own path: the records are not there (a tenant-wide setting by another name).
      expect((await history(entity, reference, otherAdmin, other)).status, entity).toBe(404);
      // ... and on this tenant's path: refused outright.
      expect((await history(entity, reference, otherAdmin)).status, entity).toBe(403);
      // A role that may read the trail but not the record's kind.
      expect((await history(entity, reference, historyOnly)).status, entity).toBe(403);
    }
    // The review item is in the north group: a reviewer of the south group does not learn it exists.
    expect((await history('supervision-item', itemRef, southReviewer)).status).toBe(404);
    expect((await as(southReviewer, 'GET', `/supervision/items/${itemRef}`)).status).toBe(404);
    expect((await history('supervision-item', 'no-such-item')).status).toBe(404);
  });

  it('puts every version\'s digest under the audit chain, which verifies whole', { timeout: 120_000 }, async () => {
    await linkPending(tenant.deps, 'user', tenant.client);
    const verified = await verifyChain(tenant.deps, tenant.client, 'user', { signingKeyId: LOCAL_AUDIT_SIGNING_KEY_ID });
    expect(verified).toMatchObject({ whole: true });
    // Every version an API call kept (all but the job's): configuration 3, app 2, defaults 2 (3 with the seeded ones),
    // migration settings 2, policy 3, review item 2.
    expect(verified.versions ?? 0).toBeGreaterThanOrEqual(14);
  });

  const retentionRun = (now: string) => retentionRunTo(tenant.deps, tenant.client, now);

  it('purges a destroyed review item\'s versions with its history: nothing of it is left', { timeout: 240_000 }, async () => {
    const { client, deps } = tenant;
    const DAY = 86_400_000;
    const ref = `${itemRef.slice(0, -1)}Z`;
    const key = keys.supervisionItem.key(client, ref);
    await raise('retained-policy', ref);
    await ok(admin, 'PUT', `/supervision/items/${ref}`, { action: 'claim' });
    await ok(admin, 'PUT', `/supervision/items/${ref}`, { action: 'close', disposition: 'No issue' });
    expect(await storedVersions(key)).toHaveLength(2);

    // A shorter period waits for a second person (four eyes): this test's portal admin approves the app's request.
    const shorter = await as(tenant.admin, 'PUT', '/account/retention', { SupervisionData: { delete_after_days: 1, destroy_after_days: 1000 } });
    if (shorter.status === 202) await ok(admin, 'POST', `/approvals/${String(shorter.body.approval_reference)}/approve`);
    else expect(shorter.status).toBe(200);

    await retentionRun(new Date(Date.now() + 10 * DAY).toISOString());
    expect((await raw(key)).retention_state).toBe('Deleted');
    expect(await storedVersions(key)).toHaveLength(2);
    // The run that destroys marks the item; the next one's purge steps remove its history and versions, then the item.
    await retentionRun(new Date(Date.now() + 2000 * DAY).toISOString());
    await retentionRun(new Date(Date.now() + 2000 * DAY).toISOString());
    expect((await deps.table.query({ partition: key.pk, consistent: true })).items).toEqual([]);
  });
});
