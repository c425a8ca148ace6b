import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalScheduler } from '#core/adapters/local/local-scheduler.ts';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { createLogger } from '#core/logger.ts';
import { readTransfer } from '#core/store/entities/transfer.ts';
import { keys } from '#core/store/keys.ts';
import type { UserPrincipal } from '#core/auth/principal.ts';
import { TransferConfigRequest } from '#shared/contract/entities/transfers.ts';
import { scheduleNameOf } from '../../lambdas/transfers/configs/schedules.ts';
import { deleteTransferConfig, saveTransferConfig } from '../../lambdas/transfers/configs/transfer-configs.ts';
import { DEMO_TRANSFER_CONFIG, seedDemoTransferConfig } from '../../scripts/local/seed/transfer-config.ts';
import { adminCaller } from './support/admin-caller.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * Transfer configurations end to end against the local stack (local API gateway, the transfers handler, DynamoDB
 * Local, the local key service): create, read, list, replace, delete and run now; secrets sealed and never answered;
 * the contract's validation messages; tenant isolation and role refusals. The schedules are observed on an in-process
 * local scheduler given to the same services, against the same table.
 */
const run = randomUUID().slice(0, 8);
const BASE = '/api/v1/demo';
const SEED = join(import.meta.dirname, '../../scripts/local/seed');
const PUBLIC_KEY = readFileSync(join(SEED, 'demo-transfer-pgp-public.asc'), 'utf8');
const PRIVATE_KEY = readFileSync(join(SEED, 'demo-transfer-pgp-private.asc'), 'utf8');
const ZIP_PASSWORD = `zip-${run}-Plain`;
const SFTP_PASSWORD = `sftp-${run}-Plain`;
const LINE = /^[^\s:]+: \S.*$/;

let admin: string;
let reviewer: string;
let acmeAdmin: string;
let deps: Dependencies;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string; errors?: string[]; data?: Array<Record<string, unknown>>; last_key?: string };
}

async function call(method: string, path: string, body?: unknown, as = admin): Promise<Answer> {
  const response = await api(path.startsWith('/api') ? path : `${BASE}${path}`, {
    method,
    headers: bearer(as, body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const sftpConfig = (overrides: Record<string, unknown> = {}) => ({
  transfer_type: 'Payload',
  target_type: 'SFTP',
  payload_types: ['Call', 'SMS'],
  schedule: 'cron(30 1 * * ? *)',
  pgp_key: PUBLIC_KEY,
  transfer_file_format: 'ZippedWithPassword',
  params: { server: 'sftp.demo.invalid', port: 2222, root_directory: '/inbox', username: 'demo-sftp' },
  secured_data: { zip_password: ZIP_PASSWORD, sftp_password: SFTP_PASSWORD },
  ...overrides,
});

const rawItem = (reference: string) => deps.table.get(keys.transferConfig.key('demo', reference), { consistent: true });

beforeAll(async () => {
  const [adminTokens, reviewerTokens, acmeTokens] = await Promise.all(['admin@demo.test', 'reviewer@demo.test', 'admin@acme.test'].map((email) => signIn(email)));
  admin = adminTokens!.id_token;
  reviewer = reviewerTokens!.id_token;
  acmeAdmin = acmeTokens!.id_token;
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
});

describe('transfer configurations over HTTP', () => {
  const ref = `it-${run}-sftp`;
  const enc = encodeURIComponent;

  it('create, read, list, replace and delete round trip, never answering a secret', async () => {
    const created = await call('POST', `/transfer_configs/${enc(ref)}`, sftpConfig());
    expect(created.status, created.body.message).toBe(201);
    expect(created.body).toMatchObject({
      client: 'demo',
      transfer_config_reference: ref,
      target_type: 'SFTP',
      schedule: 'cron(30 1 * * ? *)',
      params: { server: 'sftp.demo.invalid', port: 2222, root_directory: '/inbox', username: 'demo-sftp' },
      has_zip_password: true,
      has_sftp_password: true,
      updated_by: 'demo-admin',
    });
    expect(created.body).not.toHaveProperty('secured_data');

    const again = await call('POST', `/transfer_configs/${enc(ref)}`, sftpConfig());
    expect(again.status).toBe(409);

    const read = await call('GET', `/transfer_configs/${enc(ref)}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    // The stored item holds sealed secrets only: no plaintext anywhere in it.
    const stored = JSON.stringify(await rawItem(ref));
    expect(stored).toContain('sealed_zip_password');
    expect(stored).not.toContain(ZIP_PASSWORD);
    expect(stored).not.toContain(SFTP_PASSWORD);

    // Replace without secrets keeps them; a new SFTP password replaces the sealed one.
    const sealedBefore = (await rawItem(ref))?.sealed_sftp_password;
    const replaced = await call('PUT', `/transfer_configs/${enc(ref)}`, sftpConfig({ schedule: 'rate(6 hours)', secured_data: { sftp_password: `${SFTP_PASSWORD}-2` } }));
    expect(replaced.status, replaced.body.message).toBe(200);
    expect(replaced.body).toMatchObject({ schedule: 'rate(6 hours)', has_zip_password: true, has_sftp_password: true });
    const after = await rawItem(ref);
    expect(after?.sealed_sftp_password).not.toEqual(sealedBefore);
    expect(JSON.stringify(after)).not.toContain(`${SFTP_PASSWORD}-2`);

    const second = await call('POST', `/transfer_configs/${enc(`${ref}-2`)}`, sftpConfig({ schedule: '' }));
    expect(second.status).toBe(201);
    const firstPage = await call('GET', '/transfer_configs?limit=1');
    expect(firstPage.status).toBe(200);
    expect(firstPage.body.data).toHaveLength(1);
    const all: Array<Record<string, unknown>> = [...(firstPage.body.data ?? [])];
    for (let cursor = firstPage.body.last_key; cursor !== undefined; ) {
      const page = await call('GET', `/transfer_configs?limit=1&last_key=${enc(cursor)}`);
      all.push(...(page.body.data ?? []));
      cursor = page.body.last_key;
    }
    expect(all.map((config) => config.transfer_config_reference)).toEqual(expect.arrayContaining([ref, `${ref}-2`]));
    expect(JSON.stringify(all)).not.toContain(run + '-Plain');
    const total = await call('GET', '/transfer_configs?result_type=total');
    expect(total.body.count).toBe(all.length);

    expect((await call('DELETE', `/transfer_configs/${enc(ref)}`)).status).toBe(200);
    expect((await call('DELETE', `/transfer_configs/${enc(`${ref}-2`)}`)).status).toBe(200);
    expect((await call('GET', `/transfer_configs/${enc(ref)}`)).status).toBe(404);
    expect((await call('PUT', `/transfer_configs/${enc(ref)}`, sftpConfig())).status).toBe(404);
    expect((await call('DELETE', `/transfer_configs/${enc(ref)}`)).status).toBe(404);
    expect(await rawItem(ref)).toBeUndefined();
  });

  it('runs a configuration now: a Pending transfer is recorded for the transfers list', async () => {
    const runRef = `it-${run}-run`;
    expect((await call('POST', `/transfer_configs/${enc(runRef)}`, sftpConfig({ schedule: '' }))).status).toBe(201);
    const started = await call('POST', `/transfer_configs/${enc(runRef)}/run`);
    expect(started.status, started.body.message).toBe(202);
    expect(started.body).toMatchObject({ transfer_state: 'Pending', transfer_id: expect.stringMatching(/^[0-9A-Z]{26}$/) });
    const item = await deps.table.get(keys.transfer.key('demo', String(started.body.transfer_id)), { consistent: true });
    expect(readTransfer(item!)).toMatchObject({ transfer_config_reference: runRef, transfer_type: 'Payload', started_by: 'demo-admin' });

    expect((await call('POST', `/transfer_configs/${enc(`${runRef}-none`)}/run`)).status).toBe(404);
    expect((await call('PUT', `/transfer_configs/${enc(runRef)}`, sftpConfig({ schedule: '', is_active: false }))).status).toBe(200);
    expect((await call('POST', `/transfer_configs/${enc(runRef)}/run`)).status).toBe(409);
    expect((await call('DELETE', `/transfer_configs/${enc(runRef)}`)).status).toBe(200);
  });
});

describe('transfer configuration validation', () => {
  const path = `/transfer_configs/it-${run}-bad`;

  it('answers 400 with the contract messages, one path: message line per problem', async () => {
    const answer = await call(
      'POST',
      path,
      sftpConfig({
        target_type: 'S3',
        schedule: 'every day',
        pgp_key: 'not a key',
        params: { destination: 'https://bucket/x', iam_role_arn: 'arn:aws:iam::12:user/x' },
        secured_data: undefined,
      }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual(
      expect.arrayContaining([
        'body.schedule: Must be a valid cron or rate expression',
        'body.pgp_key: must be a valid PGP key',
        'body.params.destination: Must start with s3://',
        'body.params.iam_role_arn: Must be a valid AWS IAM role ARN',
      ]),
    );
    for (const line of answer.body.errors ?? []) expect(line).toMatch(LINE);

    const sftp = await call('POST', path, sftpConfig({ params: { server: 'sftp.demo.invalid', root_directory: 'inbox', username: 'u' } }));
    expect(sftp.body.errors).toEqual(['body.params.root_directory: Must start with a leading slash "/"']);
    expect(await rawItem(`it-${run}-bad`)).toBeUndefined();
  });

  it('refuses a cron EventBridge refuses (both day fields given), though croner reads it', async () => {
    const answer = await call('POST', path, sftpConfig({ schedule: 'cron(0 2 * * * *)' }));
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual(['body.schedule: Must be a valid cron or rate expression']);
  });

  it('checks what the contract alone cannot: a real public key, required and unused secrets', async () => {
    const answer = await call(
      'POST',
      path,
      sftpConfig({ pgp_key: PRIVATE_KEY.replaceAll('PRIVATE KEY BLOCK', 'PUBLIC KEY BLOCK'), secured_data: {} }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      'body.pgp_key: must be a valid PGP key (this is a private key; give the public key only)',
      'body.secured_data.zip_password: The zip_password field is required.',
      'body.secured_data.sftp_password: The sftp_password field is required.',
    ]);
    // The private key is never echoed back.
    expect(JSON.stringify(answer.body)).not.toContain(PRIVATE_KEY.split('\n')[2]);
  });

  it('refuses hostile input with a 4xx, never a 5xx, and stores nothing', async () => {
    const hostile: unknown[] = [
      '{"transfer_type": "Payload",',
      '[]',
      sftpConfig({ __proto__: { is_admin: true }, constructor: 'x' }),
      sftpConfig({ params: { server: 'evil.example.com; rm -rf /', root_directory: '/a/../../etc', username: 'x\u0000y' } }),
      sftpConfig({ params: { server: 'h', port: 0, root_directory: '/', username: 'u' } }),
      sftpConfig({ payload_types: ['Diagnostics'] }),
      sftpConfig({ payload_types: [] }),
      sftpConfig({ schedule: `rate(${'9'.repeat(5000)} minutes)` }),
      sftpConfig({ schedule: 'cron(0 2 * * ? *)'.repeat(50) }),
      sftpConfig({ target_type: 'FTP' }),
      sftpConfig({ secured_data: { zip_password: '' } }),
      sftpConfig({ secured_data: { zip_password: 'x'.repeat(300) } }),
      sftpConfig({ target_type: 'S3', transfer_file_format: 'Zipped', secured_data: undefined, params: { destination: 's3://a/../b', iam_role_arn: 'arn:aws:iam::123456789012:role/r' } }),
      sftpConfig({ is_active: 'yes' }),
    ];
    for (const body of hostile) {
      const answer = await call('POST', path, body);
      expect(answer.status, `${JSON.stringify(body).slice(0, 120)} → ${answer.body.message}`).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      for (const line of answer.body.errors ?? []) expect(line).toMatch(/^\S+: \S/);
    }
    for (const reference of ['ab', 'x'.repeat(256)]) {
      expect((await call('POST', `/transfer_configs/${reference}`, sftpConfig())).status).toBe(400);
    }
    expect(await rawItem(`it-${run}-bad`)).toBeUndefined();
  });
});

describe('who may see and change transfer configurations', () => {
  const ref = `it-${run}-owned`;

  beforeAll(async () => {
    expect((await call('POST', `/transfer_configs/${ref}`, sftpConfig({ schedule: '' }))).status).toBe(201);
  });
  afterAll(async () => {
    await call('DELETE', `/transfer_configs/${ref}`);
  });

  it('gives another tenant nothing', async () => {
    expect((await call('GET', `/transfer_configs/${ref}`, undefined, acmeAdmin)).status).toBe(403);
    expect((await call('GET', '/transfer_configs', undefined, acmeAdmin)).status).toBe(403);
    expect((await call('POST', `/transfer_configs/${ref}/run`, undefined, acmeAdmin)).status).toBe(403);
    const own = await call('GET', '/api/v1/acme/transfer_configs', undefined, acmeAdmin);
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).not.toContain(ref);
    expect((await call('GET', `/api/v1/acme/transfer_configs/${ref}`, undefined, acmeAdmin)).status).toBe(404);
  });

  it('lets a role without the transfer actions read but not change or run (403)', async () => {
    expect((await call('GET', `/transfer_configs/${ref}`, undefined, reviewer)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', `/transfer_configs/${ref}-r`, sftpConfig()],
      ['PUT', `/transfer_configs/${ref}`, sftpConfig()],
      ['DELETE', `/transfer_configs/${ref}`, undefined],
      ['POST', `/transfer_configs/${ref}/run`, undefined],
    ] as const) {
      expect((await call(method, path, body, reviewer)).status, `${method} ${path}`).toBe(403);
    }
    expect(await rawItem(ref)).toBeDefined();
  });
});

/** The demo tenant's admin, as the configuration services name who changed a configuration. */
const demoAdmin = { kind: 'user', client: 'demo', subject: 'demo-admin' } as UserPrincipal;

describe('schedules follow their configurations', () => {
  it('creates, changes and removes the local scheduler schedule with the configuration', async () => {
    const scheduler = createLocalScheduler({ logger: createLogger({ level: 'error' }), run: async () => undefined });
    const local = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }), { scheduler });
    const caller = adminCaller(local, 'demo', 'transferConfigs:Create', demoAdmin);
    const ref = `it-${run}-scheduled`;
    const name = scheduleNameOf('demo', ref);
    try {
      await saveTransferConfig(caller, ref, TransferConfigRequest.parse(sftpConfig({ schedule: 'cron(0 3 * * ? *)' })), 'create');
      expect(scheduler.list()).toEqual([{ name, expression: 'cron(0 3 * * ? *)' }]);
      await saveTransferConfig(caller, ref, TransferConfigRequest.parse(sftpConfig({ schedule: 'rate(2 hours)', secured_data: undefined })), 'replace');
      expect(scheduler.list()).toEqual([{ name, expression: 'rate(2 hours)' }]);
      await saveTransferConfig(caller, ref, TransferConfigRequest.parse(sftpConfig({ is_active: false, secured_data: undefined })), 'replace');
      expect(scheduler.list()).toEqual([]);
      await saveTransferConfig(caller, ref, TransferConfigRequest.parse(sftpConfig({ secured_data: undefined })), 'replace');
      expect(scheduler.list()).toEqual([{ name, expression: 'cron(30 1 * * ? *)' }]);
      // The API sees what the services wrote.
      expect((await call('GET', `/transfer_configs/${ref}`)).body).toMatchObject({ schedule: 'cron(30 1 * * ? *)', is_active: true });
      await deleteTransferConfig(caller, ref);
      expect(scheduler.list()).toEqual([]);
    } finally {
      scheduler.stopAll();
    }
  });

  it('records nothing when the scheduler refuses', async () => {
    const refusing = { upsertSchedule: () => Promise.reject(new Error('scheduler down')), deleteSchedule: () => Promise.resolve() };
    const local = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }), { scheduler: refusing });
    const caller = adminCaller(local, 'demo', 'transferConfigs:Create', demoAdmin);
    const ref = `it-${run}-refused`;
    await expect(saveTransferConfig(caller, ref, TransferConfigRequest.parse(sftpConfig()), 'create')).rejects.toMatchObject({ status: 503 });
    expect(await rawItem(ref)).toBeUndefined();
  });
});

describe('the demo transfer configuration of the local seed', () => {
  it('is created once through the API, pointing at this run\'s SFTP stand-in, with its secrets sealed', async () => {
    expect(await seedDemoTransferConfig(stack())).toBe(true);
    try {
      const read = await call('GET', `/transfer_configs/${DEMO_TRANSFER_CONFIG}`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        target_type: 'SFTP',
        transfer_file_format: 'ZippedWithPassword',
        schedule: 'cron(0 2 * * ? *)',
        params: { server: stack().sftp.host, port: stack().sftp.port, username: stack().sftp.username },
        has_zip_password: true,
        has_sftp_password: true,
      });
      expect(JSON.stringify(await rawItem(DEMO_TRANSFER_CONFIG))).not.toContain(stack().sftp.password);
      expect(await seedDemoTransferConfig(stack())).toBe(false);
    } finally {
      await call('DELETE', `/transfer_configs/${DEMO_TRANSFER_CONFIG}`);
    }
  });
});
