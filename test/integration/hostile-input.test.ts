import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { ItemTooLargeError, UnstorableNumberError } from '#core/errors.ts';
import { keys } from '#core/store/keys.ts';
import { namesPart, oversizedBodies } from '#core/testing/oversized-bodies.ts';
import {
  CIDR_RANGES_MAX,
  PERMISSION_CONDITIONS_MAX,
  ROLE_CONDITIONS_MAX,
  ROLE_PERMISSIONS_MAX,
  TAG_VALUES_MAX,
} from '#shared/contract/bounds.ts';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { rawRequest, type RawResponse } from './support/raw-request.ts';
import { signIn } from './support/sign-in.ts';
import { stack } from './support/stack.ts';

/**
 * Hostile input against the real local stack (local API gateway, Lambda handlers, DynamoDB Local): oversized
 * lists, unsafe numbers and bodies that are not JSON are a 4xx with `path: message` lines, never a 5xx; the largest
 * valid role and tag definition are stored; and DynamoDB Local's own refusals (an item over 400 KB, a number it
 * cannot hold) come out of the table store as the typed 413 and 400.
 */
const run = randomUUID().slice(0, 8);
const LINE = /^[^\s:]+: \S.*$/;
let token: string;
let deps: Dependencies;

beforeAll(async () => {
  token = (await signIn('admin@demo.test')).id_token;
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
});

interface Answer {
  status: number;
  errors: string[];
  body: Record<string, unknown>;
}

async function send(method: string, path: string, body: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Answer> {
  const response: RawResponse = await rawRequest(stack().apiUrl, {
    method,
    path,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : headers) },
    ...(body === undefined ? {} : { body }),
  });
  const parsed = (response.text === '' ? {} : JSON.parse(response.text)) as Record<string, unknown>;
  const message = typeof parsed.message === 'string' ? parsed.message : '';
  return { status: response.status, errors: response.status >= 400 ? message.split('\n') : [], body: parsed };
}

/** A 4xx whose every line is `path: message`. */
function expectRefused(answer: Answer, status: number, lines: string[]): void {
  expect(answer.status, answer.errors.join('\n')).toBe(status);
  expect(answer.errors).toEqual(lines);
  for (const line of answer.errors) expect(line).toMatch(LINE);
}

const alerts = { ops_read: true, ops_write: false, sec_read: false, sec_write: false };
const matcher = (seed: number) => `${seed}`.padEnd(255, 'm');
const range = `Must be a number between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`;

describe('the hostile inputs that once answered 500', () => {
  it('a role with 10,000 permissions', async () => {
    const role = { permissions: Array.from({ length: 10_000 }, (_, index) => ({ actions_matching: `devices:${index}` })), alert_permissions: alerts };
    expectRefused(await send('PUT', `/api/v1/demo/roles/it-${run}-many`, JSON.stringify(role)), 400, [
      `body.permissions: Must contain between 1 and ${ROLE_PERMISSIONS_MAX} items`,
    ]);
  });

  it('a role with 3,000 conditions, on one permission or spread over many', async () => {
    const conditions = Array.from({ length: 3000 }, (_, index) => ({ names_matching: `g${index}-*` }));
    const one = { permissions: [{ actions_matching: 'devices:*', conditions }], alert_permissions: alerts };
    expectRefused(await send('PUT', `/api/v1/demo/roles/it-${run}-deep`, JSON.stringify(one)), 400, [
      `body.permissions.0.conditions: Must contain at most ${PERMISSION_CONDITIONS_MAX} items`,
    ]);
    const spread = {
      permissions: Array.from({ length: 150 }, (_, index) => ({ actions_matching: `devices:${index}`, conditions: conditions.slice(0, PERMISSION_CONDITIONS_MAX) })),
      alert_permissions: alerts,
    };
    expectRefused(await send('PUT', `/api/v1/demo/roles/it-${run}-spread`, JSON.stringify(spread)), 400, [
      `body.permissions: Must contain at most ${ROLE_CONDITIONS_MAX} conditions in all`,
    ]);
  });

  it('a tag definition with 2,900 long values', async () => {
    const values = Array.from({ length: 2900 }, (_, index) => `${index}`.padEnd(255, 'v'));
    expectRefused(await send('PUT', `/api/v1/demo/tags/it-${run}-wide`, JSON.stringify({ tag_values: values, force_update: true })), 400, [
      `body.tag_values: Must contain at most ${TAG_VALUES_MAX} items`,
    ]);
  });

  it('device command params of 1e308 and 18446744073709551616 (sent as raw JSON text)', async () => {
    for (const raw of ['1e308', '18446744073709551616']) {
      const body = `{"command":"sms_auto_response","params":{"delay":${raw},"text":"Away"}}`;
      expectRefused(await send('POST', `/api/v1/demo/devices/it-${run}-device/commands`, body), 400, [`body.params.delay: ${range}`]);
    }
  });

  it('a body that is not JSON is a 415: a form, plain text, or no content type', async () => {
    const body = JSON.stringify({ tag_values: ['a'] });
    const path = `/api/v1/demo/tags/it-${run}-typed`;
    for (const type of ['application/x-www-form-urlencoded', 'text/plain;charset=UTF-8']) {
      expectRefused(await send('PUT', path, body, { 'content-type': type }), 415, [
        `headers.content-type: Must be application/json for a request with a body (got ${type})`,
      ]);
    }
    expectRefused(await send('PUT', path, body, {}), 415, ['headers.content-type: Must be application/json for a request with a body (got none)']);
    const typed = await send('PUT', path, body, { 'content-type': 'application/json; charset=utf-8' });
    expect(typed.status, typed.errors.join('\n')).toBe(200);
    expect(typed.body).toMatchObject({ tag_key: `it-${run}-typed`, tag_values: ['a'] });
    await send('DELETE', path, undefined);
  });
});

describe('the device-facing and internal surfaces are bounded too', () => {
  it('a device log upload of 1001 lines and a line over 32 KB, before any token is looked at', async () => {
    const line = { log_level: 'INFO', log_datetime: '2025-01-01T00:00:00Z', log_message: 'x' };
    const many = await rawRequest(stack().apiUrl, {
      method: 'POST',
      path: '/device/v1/logs',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ logs: Array.from({ length: 1001 }, () => line) }),
    });
    expect(many.status).toBe(400);
    expect(JSON.parse(many.text).message).toBe('body.logs: Must contain between 1 and 1000 items');
    const long = await rawRequest(stack().apiUrl, {
      method: 'POST',
      path: '/device/v1/logs',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ logs: [{ ...line, log_message: 'x'.repeat(32 * 1024 + 1) }] }),
    });
    expect(JSON.parse(long.text).message).toBe('body.logs.0.log_message: Must be at most 32768 characters');
  });

  it('every bound of every body in the registry, one past it, is a 400 naming the part (admin, client, internal, device)', async () => {
    const failures: string[] = [];
    const surfaces = new Set<string>();
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.fullPath.replace(/\{([a-z_]+)\}/g, (_, name: string) => (name === 'client' ? 'demo' : `it-${run}-x`));
      for (const { where, body } of oversizedBodies(endpoint)) {
        const answer = await send(endpoint.method, path, body);
        surfaces.add(endpoint.surface);
        const ok = answer.status === 400 && answer.errors.some((line) => namesPart(line, where)) && answer.errors.every((line) => LINE.test(line));
        if (!ok) failures.push(`${endpoint.id} ${where}: ${answer.status} ${answer.errors.slice(0, 2).join(' | ')}`);
      }
    }
    expect([...surfaces].sort()).toEqual(['admin', 'client', 'device', 'internal']);
    expect(failures).toEqual([]);
  }, 120_000);
});

describe('no valid request can make an item over 400 KB', () => {
  it('the largest valid role is stored and read back whole', async () => {
    const role = {
      permissions: Array.from({ length: ROLE_PERMISSIONS_MAX }, (_, index) => ({
        actions_matching: matcher(index),
        ...(index < ROLE_CONDITIONS_MAX / PERMISSION_CONDITIONS_MAX
          ? {
              conditions: Array.from({ length: PERMISSION_CONDITIONS_MAX }, (_, at) => ({
                names_matching: matcher(at),
                keys_matching: matcher(at + 1),
                values_matching: matcher(at + 2),
              })),
            }
          : {}),
      })),
      payload_types: [...PAYLOAD_TYPES],
      cidr_ranges: Array.from({ length: CIDR_RANGES_MAX }, (_, index) => `10.0.${index}.0/24`),
      alert_permissions: alerts,
      description: 'd'.repeat(1000),
    };
    const body = JSON.stringify(role);
    expect(body.length).toBeGreaterThan(300_000);
    const stored = await send('PUT', `/api/v1/demo/roles/it-${run}-largest`, body);
    expect(stored.status, stored.errors.join('\n')).toBe(200);
    const read = await send('GET', `/api/v1/demo/roles/it-${run}-largest`, undefined);
    expect((read.body.permissions as unknown[]).length).toBe(ROLE_PERMISSIONS_MAX);
    await send('DELETE', `/api/v1/demo/roles/it-${run}-largest`, undefined);
  });

  it('the largest valid tag definition is stored and read back whole', async () => {
    const values = Array.from({ length: TAG_VALUES_MAX }, (_, index) => `${index}`.padEnd(255, 'v'));
    const path = `/api/v1/demo/tags/it-${run}-largest`;
    const stored = await send('PUT', path, JSON.stringify({ tag_values: values, force_update: true, description: 'd'.repeat(1000) }));
    expect(stored.status, stored.errors.join('\n')).toBe(200);
    expect(((await send('GET', path, undefined)).body.tag_values as unknown[]).length).toBe(TAG_VALUES_MAX);
    await send('DELETE', path, undefined);
  });
});

describe("DynamoDB Local's refusals come out of the table store typed", () => {
  // A tenant of its own: these items are deliberately not groups, and no list of a real tenant may meet them.
  const key = (name: string) => keys.group.item(`it-${run}`, name);

  it('an item over 400 KB is ItemTooLargeError (413) naming the largest attribute: put, update and transaction', async () => {
    const big = 'x'.repeat(410 * 1024);
    const put = await deps.table.put({ ...key('big'), tags: big, note: 'small' }).catch((error: unknown) => error);
    expect(put).toBeInstanceOf(ItemTooLargeError);
    expect(put).toMatchObject({ status: 413, attribute: 'tags' });
    await deps.table.put({ ...key('grow'), note: 'small' });
    await expect(deps.table.update(key('grow'), { set: { tags: big } })).rejects.toMatchObject({ status: 413, attribute: 'tags' });
    await expect(
      deps.table.transactWrite([
        { kind: 'put', item: { ...key('t1'), note: 'small' } },
        { kind: 'put', item: { ...key('t2'), tags: big } },
      ]),
    ).rejects.toMatchObject({ status: 413, attribute: 'tags' });
  });

  it('a number past MAX_SAFE_INTEGER or below 1e-130 in size is UnstorableNumberError (400)', async () => {
    for (const number of [1e308, 18446744073709551616, 1e-200]) {
      const error = await deps.table.put({ ...key(`n${String(number)}`), count: number }).catch((caught: unknown) => caught);
      expect(error, String(number)).toBeInstanceOf(UnstorableNumberError);
    }
  });
});

describe('references and text stay printable', () => {
  const REFERENCE = 'Cannot start or end with a space, cannot contain "/", "\\", control characters, text-direction overrides or unpaired surrogates';
  const FREE_TEXT = 'Cannot contain NUL, text-direction overrides or unpaired surrogates';
  /** Names a path may carry (a lone surrogate cannot be put in a URL, so it is sent in bodies below). */
  const HOSTILE_NAMES = ['sec-fuzz-user\u0000', '../../internal/v1/clients', ' lead', 'trail ', 'rlo\u202Eexe.txt', 'bell\u0007x', 'back\\slash'];
  const HOSTILE_TEXT = ['nul\u0000', 'rlo\u202Eexe.txt', 'isolate\u2066x', 'lone\uD800x'];
  const enc = encodeURIComponent;
  const sms = { transfer_type: 'Payload', target_type: 'S3', payload_types: ['SMS'], schedule: 'cron(30 1 * * ? *)', transfer_file_format: 'Zipped' };

  /** Each named path and body refused with a 400 whose lines are all `path: message`, the named line among them. */
  async function expectLine(method: string, path: string, body: unknown, line: string): Promise<void> {
    const answer = await send(method, path, JSON.stringify(body));
    expect(answer.status, `${method} ${path} ${JSON.stringify(body)}: ${answer.errors.join(' | ')}`).toBe(400);
    expect(answer.errors).toContain(line);
    for (const each of answer.errors) expect(each).toMatch(LINE);
  }

  it('refuses hostile role, group, tag, device user and transfer configuration references in the path', async () => {
    for (const name of HOSTILE_NAMES) {
      const value = `${name}`;
      await expectLine('PUT', `/api/v1/demo/roles/${enc(value)}`, { permissions: [{ actions_matching: 'devices:List' }], alert_permissions: alerts }, `params.role_reference: ${REFERENCE}`);
      await expectLine('PUT', `/api/v1/demo/groups/${enc(value)}`, { tags: [] }, `params.group_reference: ${REFERENCE}`);
      await expectLine('PUT', `/api/v1/demo/tags/${enc(value)}`, { tag_values: null }, `params.tag_key: ${REFERENCE}`);
      await expectLine('POST', `/api/v1/demo/transfer_configs/${enc(value)}`, sms, `params.transfer_config_reference: ${REFERENCE}`);
    }
    // A device user reference keeps the spec's own rule (leading space, comma) and gains the printable one.
    await expectLine('POST', `/api/v1/demo/users/${enc('sec-fuzz-user\u0000')}`, {}, `params.device_user_reference: ${REFERENCE}`);
    await expectLine('POST', `/api/v1/demo/users/${enc('../../internal/v1/clients')}`, {}, `params.device_user_reference: ${REFERENCE}`);
    await expectLine('POST', `/api/v1/demo/users/${enc(' lead')}`, {}, 'params.device_user_reference: Cannot start with leading space, cannot contain a comma');
    // None was stored.
    for (const name of HOSTILE_NAMES) {
      expect((await send('GET', `/api/v1/demo/roles/${enc(name)}`, undefined)).status).not.toBe(200);
      expect((await send('GET', `/api/v1/demo/groups/${enc(name)}`, undefined)).status).not.toBe(200);
    }
  });

  it('refuses hostile references inside bodies: a device user’s group, a group’s tag key, lone surrogates included', async () => {
    const user = { services: ['calls'], expected_device_count: 1, email: `it-${run}@demo.test`, first_name: 'Hostile', surname: 'Input' };
    for (const group of ['../../internal/v1/clients', 'g\u0000', 'lone\uDC00x']) {
      await expectLine('POST', `/api/v1/demo/users/it-${run}-du`, { ...user, group }, `body.group: ${REFERENCE}`);
      await expectLine('PUT', `/api/v1/demo/groups/it-${run}-g`, { tags: [{ tag_key: group, tag_value: 'v' }] }, `body.tags.0.tag_key: ${REFERENCE}`);
    }
  });

  it('refuses NUL, text-direction overrides and lone surrogates in free text: descriptions, names, values', async () => {
    for (const text of HOSTILE_TEXT) {
      await expectLine('PUT', `/api/v1/demo/roles/it-${run}-text`, { permissions: [{ actions_matching: 'devices:List' }], alert_permissions: alerts, description: text }, `body.description: ${FREE_TEXT}`);
      await expectLine('PUT', `/api/v1/demo/tags/it-${run}-text`, { tag_values: [text] }, `body.tag_values.0: ${FREE_TEXT}`);
      await expectLine('POST', `/api/v1/demo/users/it-${run}-text`, { group: 'g', services: ['calls'], expected_device_count: 1, email: `t-${run}@demo.test`, first_name: text, surname: 'S' }, `body.first_name: ${FREE_TEXT}`);
    }
    expect((await send('GET', `/api/v1/demo/roles/it-${run}-text`, undefined)).status).toBe(404);
  });

  it('keeps ordinary text, and stores a reference in its NFC spelling (one name, one key)', async () => {
    const role = { permissions: [{ actions_matching: 'devices:List' }], alert_permissions: alerts, description: 'Zürich desk — שלום, 日本, line one\nline two' };
    const decomposed = `Cafe\u0301-${run}`;
    const saved = await send('PUT', `/api/v1/demo/roles/${enc(decomposed)}`, JSON.stringify(role));
    expect(saved.status, saved.errors.join('\n')).toBe(200);
    expect(saved.body).toMatchObject({ role_reference: `Caf\u00e9-${run}`, description: role.description });
    expect((await send('GET', `/api/v1/demo/roles/${enc(`Caf\u00e9-${run}`)}`, undefined)).status).toBe(200);
    expect((await send('DELETE', `/api/v1/demo/roles/${enc(decomposed)}`, undefined)).status).toBe(200);
  });
});
