import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PAYLOAD_TYPES } from '../constants/payloads.ts';
import { CALL_PARTIES_LIMIT, GROUP_TAG_LIMIT, INTERVIEW_PAUSE_TIMES_LIMIT, TAG_VALUE_MAX_LENGTH } from '../constants/limits.ts';
import {
  APP_ROLES_MAX,
  CIDR_RANGES_MAX,
  COMMAND_PARAM_NAME_MAX,
  COMMAND_PARAM_TEXT_MAX,
  COMMAND_PARAMS_MAX,
  DYNAMODB_ITEM_LIMIT_BYTES,
  LOG_MESSAGE_MAX,
  PERMISSION_CONDITIONS_MAX,
  ROLE_CONDITIONS_MAX,
  ROLE_PERMISSIONS_MAX,
  SEALED_META_MAX_CHARS,
  SEALED_PLAINTEXT_MAX_BYTES,
  SHORT_TEXT_MAX,
  TAG_VALUES_MAX,
  URL_MAX,
  WRAPPED_KEY_MAX_CHARS,
} from './bounds.ts';
import { AccountDefaultsRequest } from './entities/account.ts';
import { ClientAppRequest } from './entities/client-apps.ts';
import { DeviceAuthRequest, PayloadRegistration } from './entities/device-auth.ts';
import { DeviceCommandParams, DeviceCommandRequest } from './entities/devices.ts';
import { GpsFix } from './entities/gps.ts';
import { GroupRequest, TagDefinitionRequest } from './entities/groups.ts';
import { DeviceLogUpload } from './entities/logs.ts';
import { META_BY_TYPE } from './entities/payloads.ts';
import { RoleRequest } from './entities/roles.ts';
import { TelemetryMeta } from './entities/telemetry.ts';
import { TransferConfigRequest } from './entities/transfers.ts';
import { FreeFormValue, SafeNumber } from './fields.ts';
import { itemSize, largestAttribute, valueSize } from './item-size.ts';
import { formatIssues } from './messages.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { ENDPOINTS } from './registry.ts';

type JsonSchema = Record<string, unknown>;

/** A string whose pattern has no open-ended repeat is bounded by the pattern itself (dates, ULIDs, IMEIs). */
const boundedByPattern = (pattern: unknown): boolean => typeof pattern === 'string' && !/[*+]|\{\d+,\}/.test(pattern.replace(/\\./g, ''));

/** Every array, open object, string and number in a JSON Schema that has no upper bound, as `path: what`. */
function unbounded(schema: JsonSchema, path: string, defs: Record<string, JsonSchema>, seen = new Set<string>()): string[] {
  const found: string[] = [];
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const name = ref.split('/').pop() as string;
    if (seen.has(name)) return found;
    return unbounded(defs[name] as JsonSchema, path, defs, new Set([...seen, name]));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const branch of (schema[key] as JsonSchema[] | undefined) ?? []) found.push(...unbounded(branch, path, defs, seen));
  }
  const type = schema.type;
  if (type === 'array') {
    if (schema.maxItems === undefined) found.push(`${path}: array without maxItems`);
    if (schema.items) found.push(...unbounded(schema.items as JsonSchema, `${path}[]`, defs, seen));
  }
  if (type === 'object') {
    const extra = schema.additionalProperties;
    // Absent means zod strips unknown keys (nothing is kept); `false` refuses them.
    if (extra !== undefined && extra !== false && schema.maxProperties === undefined) found.push(`${path}: open object without maxProperties`);
    for (const [name, property] of Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {})) {
      found.push(...unbounded(property, `${path}.${name}`, defs, seen));
    }
    if (extra && typeof extra === 'object') found.push(...unbounded(extra as JsonSchema, `${path}.*`, defs, seen));
    if (schema.propertyNames) found.push(...unbounded(schema.propertyNames as JsonSchema, `${path}.<key>`, defs, seen));
  }
  if (type === 'string' && schema.maxLength === undefined && schema.enum === undefined && schema.const === undefined && !boundedByPattern(schema.pattern)) {
    found.push(`${path}: string without maxLength`);
  }
  if ((type === 'number' || type === 'integer') && schema.maximum === undefined) found.push(`${path}: number without maximum`);
  if ((type === 'number' || type === 'integer') && schema.minimum === undefined) found.push(`${path}: number without minimum`);
  return found;
}

const jsonSchemaOf = (schema: z.ZodType): JsonSchema => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
const unboundedIn = (schema: z.ZodType, path: string): string[] => {
  const json = jsonSchemaOf(schema);
  return unbounded(json, path, (json.$defs as Record<string, JsonSchema> | undefined) ?? {});
};

/** The sealed content devices send: parsed after opening the envelope, and stored (telemetry, GPS) or kept sealed. */
const SEALED_SCHEMAS: Record<string, z.ZodType> = {
  TelemetryMeta,
  GpsFix,
  ...Object.fromEntries(Object.entries(META_BY_TYPE).map(([type, schema]) => [`${type}Meta`, schema])),
};

describe('every input is bounded', () => {
  it('every request body of the registry bounds its arrays, open objects, strings and numbers', () => {
    const bodies = ENDPOINTS.filter((endpoint) => endpoint.body !== undefined);
    expect(bodies.length).toBeGreaterThan(30);
    expect(bodies.flatMap((endpoint) => unboundedIn(endpoint.body as z.ZodType, `${endpoint.id} body`))).toEqual([]);
  });

  it('the device endpoints and the internal ones are among them', () => {
    const surfaces = new Set(ENDPOINTS.filter((endpoint) => endpoint.body !== undefined).map((endpoint) => endpoint.surface));
    expect([...surfaces].sort()).toEqual(['admin', 'client', 'device', 'internal']);
  });

  it('every sealed device content bounds its parts too (telemetry, GPS, payload meta)', () => {
    expect(Object.entries(SEALED_SCHEMAS).flatMap(([name, schema]) => unboundedIn(schema, name))).toEqual([]);
  });

  it('the walk finds what is unbounded (it is not vacuous)', () => {
    const loose = z.object({ list: z.array(z.string()), map: z.record(z.string(), z.number()), free: z.looseObject({}) });
    expect(unboundedIn(loose, 'x')).toEqual([
      'x.list: array without maxItems',
      'x.list[]: string without maxLength',
      'x.map: open object without maxProperties',
      'x.map.*: number without maximum',
      'x.map.*: number without minimum',
      'x.map.<key>: string without maxLength',
      'x.free: open object without maxProperties',
    ]);
  });
});

describe('numbers are finite and safe', () => {
  const lines = (schema: z.ZodType, value: unknown) => {
    const result = schema.safeParse(value);
    return result.success ? [] : formatIssues(result.error, 'body');
  };
  const outOfRange = `Must be a number between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`;

  it('refuses numbers past MAX_SAFE_INTEGER with the friendly range message', () => {
    expect(lines(SafeNumber, 1e308)).toEqual([`body: ${outOfRange}`]);
    // What JSON.parse makes of 18446744073709551616: 18446744073709552000, not the number sent.
    expect(lines(SafeNumber, JSON.parse('18446744073709551616'))).toEqual([`body: ${outOfRange}`]);
    expect(lines(SafeNumber, -1e20)).toEqual([`body: ${outOfRange}`]);
    expect(lines(SafeNumber, JSON.parse('1e400'))).toEqual(['body: Please provide a valid number for the field.']);
    expect(lines(SafeNumber, Number.MAX_SAFE_INTEGER)).toEqual([]);
    expect(lines(SafeNumber, 0.25)).toEqual([]);
  });

  it('command params name the parameter whose number is out of range', () => {
    expect(lines(DeviceCommandRequest, { command: 'sms_auto_response', params: { delay: 1e308, text: 'hi' } })).toEqual([
      `body.params.delay: ${outOfRange}`,
    ]);
  });

  it('free-form meta values are bounded at every depth', () => {
    expect(lines(FreeFormValue, { a: [{ b: 1e308 }] })).toEqual([`body.a.0.b: ${outOfRange}`]);
    expect(lines(TelemetryMeta, { collected_at: '2025-01-01T00:00:00Z', health: { extra: 1e308 } })).toEqual([
      `body.health.extra: ${outOfRange}`,
    ]);
    expect(lines(FreeFormValue, { a: 'x'.repeat(1001) })).toEqual(['body.a: Must be at most 1000 characters']);
  });
});

describe('oversized inputs answer one path: message line', () => {
  const lines = (schema: z.ZodType, value: unknown) => {
    const result = schema.safeParse(value);
    return result.success ? [] : formatIssues(result.error, 'body');
  };
  const permission = (conditions = 0) => ({
    actions_matching: 'devices:*',
    ...(conditions > 0 ? { conditions: Array.from({ length: conditions }, () => ({ names_matching: 'g*' })) } : {}),
  });
  const alerts = { ops_read: true, ops_write: false, sec_read: false, sec_write: false };

  it('a role of 10,000 permissions, one of 3,000 conditions, one over the conditions in all', () => {
    expect(lines(RoleRequest, { permissions: Array.from({ length: 10_000 }, () => permission()), alert_permissions: alerts })).toEqual([
      `body.permissions: Must contain between 1 and ${ROLE_PERMISSIONS_MAX} items`,
    ]);
    expect(lines(RoleRequest, { permissions: [permission(3000)], alert_permissions: alerts })).toEqual([
      `body.permissions.0.conditions: Must contain at most ${PERMISSION_CONDITIONS_MAX} items`,
    ]);
    const spread = Array.from({ length: ROLE_CONDITIONS_MAX / PERMISSION_CONDITIONS_MAX + 1 }, () => permission(PERMISSION_CONDITIONS_MAX));
    expect(lines(RoleRequest, { permissions: spread, alert_permissions: alerts })).toEqual([
      `body.permissions: Must contain at most ${ROLE_CONDITIONS_MAX} conditions in all`,
    ]);
  });

  it('a tag definition of 2,900 long values', () => {
    const values = Array.from({ length: 2900 }, (_, index) => `${index}`.padEnd(TAG_VALUE_MAX_LENGTH, 'v'));
    expect(lines(TagDefinitionRequest, { tag_values: values })).toEqual([`body.tag_values: Must contain at most ${TAG_VALUES_MAX} items`]);
  });

  it('command params with too many keys, a long name or a long text', () => {
    const many = Object.fromEntries(Array.from({ length: COMMAND_PARAMS_MAX + 1 }, (_, index) => [`p${index}`, index]));
    expect(lines(DeviceCommandParams, many)).toEqual([`body: Must have at most ${COMMAND_PARAMS_MAX} keys`]);
    expect(lines(DeviceCommandParams, { ['n'.repeat(COMMAND_PARAM_NAME_MAX + 1)]: 1 })[0]).toMatch(/^body\.n+: Must be between 1 and 60 characters$/);
    expect(lines(DeviceCommandParams, { text: 'x'.repeat(COMMAND_PARAM_TEXT_MAX + 1) })).toEqual([
      `body.text: Must be at most ${COMMAND_PARAM_TEXT_MAX} characters`,
    ]);
  });
});

/**
 * The keys and stamps the services add to a request when they store it, at their largest: five key pairs of 400
 * characters (tenant, references and times), the entity tag, client, who and when. Generous on purpose.
 */
const STORED_EXTRAS = {
  pk: 'k'.repeat(400),
  sk: 'k'.repeat(400),
  ...Object.fromEntries(['gsi1', 'gsi2', 'gsi3', 'gsi4'].flatMap((index) => [[`${index}pk`, 'k'.repeat(400)], [`${index}sk`, 'k'.repeat(400)]])),
  entity: 'e'.repeat(40),
  client: 'c'.repeat(63),
  updated_by: 'u'.repeat(255),
  updated_at: '2025-01-01T00:00:00.000Z',
  created_at: '2025-01-01T00:00:00.000Z',
};

/** The stored item of a request body: it must pass its schema, and it is measured with everything the service adds. */
function storedSize(schema: z.ZodType, body: unknown, extra: Record<string, unknown> = {}): number {
  const parsed = schema.safeParse(body);
  expect(parsed.success ? [] : formatIssues(parsed.error, 'body')).toEqual([]);
  return itemSize({ ...STORED_EXTRAS, ...(parsed.data as Record<string, unknown>), ...extra });
}

const matcher = (seed: number) => `${seed}`.padEnd(255, 'm');
const cidrs = Array.from({ length: CIDR_RANGES_MAX }, (_, index) => `10.${Math.floor(index / 256)}.${index % 256}.0/24`);

describe('the largest valid item of each kind stays under 400 KB', () => {
  it('a role: 200 permissions of 255-character matchers, 300 conditions of three, 100 CIDR ranges', () => {
    const permissions = Array.from({ length: ROLE_PERMISSIONS_MAX }, (_, index) => ({
      actions_matching: matcher(index),
      is_denied: true,
      is_regex: false,
      ...(index < ROLE_CONDITIONS_MAX / PERMISSION_CONDITIONS_MAX
        ? {
            conditions: Array.from({ length: PERMISSION_CONDITIONS_MAX }, (_, at) => ({
              names_matching: matcher(at),
              keys_matching: matcher(at + 1),
              values_matching: matcher(at + 2),
              is_denied: true,
              is_regex: false,
            })),
          }
        : {}),
    }));
    const role = {
      permissions,
      payload_types: [...PAYLOAD_TYPES],
      cidr_ranges: cidrs,
      alert_permissions: { ops_read: true, ops_write: true, sec_read: true, sec_write: true },
      is_alertable: true,
      description: 'd'.repeat(1000),
    };
    const size = storedSize(RoleRequest, role, { role_reference: 'r'.repeat(35), is_system: false });
    expect(size).toBeGreaterThan(300_000);
    expect(size).toBeLessThan(DYNAMODB_ITEM_LIMIT_BYTES);
    // The JSON a client sends for it is of the same order (what the brief measured as "its JSON size").
    expect(JSON.stringify(role).length).toBeLessThan(DYNAMODB_ITEM_LIMIT_BYTES);
  });

  it('a tag definition: 1000 values of 255 characters', () => {
    const values = Array.from({ length: TAG_VALUES_MAX }, (_, index) => `${index}`.padEnd(TAG_VALUE_MAX_LENGTH, 'v'));
    const definition = { tag_values: values, is_required: true, default_value: values[0], force_update: true, description: 'd'.repeat(1000) };
    const size = storedSize(TagDefinitionRequest, definition, { tag_key: 't'.repeat(60) });
    expect(size).toBeGreaterThan(250_000);
    expect(size).toBeLessThan(DYNAMODB_ITEM_LIMIT_BYTES);
    expect(JSON.stringify(definition).length).toBeLessThan(DYNAMODB_ITEM_LIMIT_BYTES);
  });

  it('a group (50 tags), a client app, the account defaults, a transfer config', () => {
    const tags = Array.from({ length: GROUP_TAG_LIMIT }, (_, index) => ({ tag_key: `${index}`.padEnd(60, 'k'), tag_value: matcher(index) }));
    expect(storedSize(GroupRequest, { tags }, { group_reference: 'g'.repeat(255) })).toBeLessThan(DYNAMODB_ITEM_LIMIT_BYTES);
    const app = {
      oidc_config: { issuer: `https://${'i'.repeat(URL_MAX - 8)}`, audience: 'a'.repeat(URL_MAX), jwks_uri: `https://${'j'.repeat(URL_MAX - 8)}` },
      group: 'g'.repeat(255),
      roles: Array.from({ length: APP_ROLES_MAX }, (_, index) => `${index}`.padEnd(35, 'r')),
      cidr_ranges: cidrs,
    };
    expect(storedSize(ClientAppRequest, app)).toBeLessThan(DYNAMODB_ITEM_LIMIT_BYTES);
    expect(storedSize(AccountDefaultsRequest, { user_group: 'g'.repeat(255), role: 'r'.repeat(35), cidr_ranges: cidrs })).toBeLessThan(
      DYNAMODB_ITEM_LIMIT_BYTES,
    );
    const pgp = `-----BEGIN PGP PUBLIC KEY BLOCK-----\n${'A'.repeat(64 * 1024 - 80)}\n-----END PGP PUBLIC KEY BLOCK-----`;
    const transfer = {
      transfer_type: 'Payload',
      target_type: 'S3',
      payload_types: ['Call', 'Interview', 'Photo', 'MMS', 'RCS', 'SMS', 'Video'],
      schedule: 'rate(5 minutes)',
      pgp_key: pgp,
      params: { destination: `s3://${'b'.repeat(1019)}`, iam_role_arn: `arn:aws:iam::123456789012:role/${'r'.repeat(990)}` },
      secured_data: { zip_password: 'p'.repeat(255) },
    };
    expect(storedSize(TransferConfigRequest, transfer)).toBeLessThan(DYNAMODB_ITEM_LIMIT_BYTES);
  });

  it('a device command, a device log line, a device registration', () => {
    const params = Object.fromEntries(Array.from({ length: COMMAND_PARAMS_MAX }, (_, index) => [`${index}`.padEnd(60, 'n'), 'v'.repeat(1000)]));
    expect(storedSize(DeviceCommandRequest, { command: 'sms_auto_response', params })).toBeLessThan(DYNAMODB_ITEM_LIMIT_BYTES);
    const line = { log_class: 'c'.repeat(255), log_level: 'ERROR', log_datetime: '2025-01-01T00:00:00Z', local_timezone: 'z'.repeat(64), payload_reference: 'p'.repeat(36), log_message: 'm'.repeat(LOG_MESSAGE_MAX) };
    const upload = DeviceLogUpload.parse({ logs: [line] });
    expect(itemSize({ ...STORED_EXTRAS, ...upload.logs[0] })).toBeLessThan(DYNAMODB_ITEM_LIMIT_BYTES);
    const auth = {
      ulid_encrypted: 'A'.repeat(WRAPPED_KEY_MAX_CHARS),
      phone_numbers: Array.from({ length: 8 }, () => 'p'.repeat(255)),
      imeis: Array.from({ length: 8 }, () => '1'.repeat(15)),
      installation_id: 'i'.repeat(255),
      model: 'm'.repeat(255),
      os_version: 'o'.repeat(64),
      app_version: 'a'.repeat(64),
      serial_number: 's'.repeat(255),
      fcm_token: 'f'.repeat(4096),
    };
    expect(storedSize(DeviceAuthRequest, auth)).toBeLessThan(DYNAMODB_ITEM_LIMIT_BYTES);
  });

  it('a payload registration: its sealed meta at the largest, with the key material beside it', () => {
    const registration = {
      encrypted_dek: 'A'.repeat(WRAPPED_KEY_MAX_CHARS),
      iv: 'A'.repeat(16),
      key_id: 'k'.repeat(2048),
      meta: 'A'.repeat(SEALED_META_MAX_CHARS),
      payload_reference: 'p'.repeat(36),
      payload_type: 'Call',
      checksum: 'a'.repeat(64),
    };
    const size = storedSize(PayloadRegistration, registration);
    expect(size).toBeGreaterThan(SEALED_META_MAX_CHARS);
    expect(size).toBeLessThan(DYNAMODB_ITEM_LIMIT_BYTES);
    expect(PayloadRegistration.safeParse({ ...registration, meta: 'A'.repeat(SEALED_META_MAX_CHARS + 4) }).success).toBe(false);
  });

  it('a telemetry report: 256 KiB of sealed JSON in the shape DynamoDB counts most heavily stays under the item', () => {
    // Lists of zeros cost DynamoDB 3 bytes for every 2 bytes of JSON: the worst ratio bounded values allow.
    const zeros = Array.from({ length: 200 }, () => 0);
    const extras: Record<string, unknown> = {};
    let json = 0;
    for (let index = 0; json < SEALED_PLAINTEXT_MAX_BYTES - 1000; index += 1) {
      extras[`z${index}`] = zeros;
      json = JSON.stringify(extras).length;
      if (Object.keys(extras).length === 199) break;
    }
    const apps = [];
    const meta: Record<string, unknown> = { collected_at: '2025-01-01T00:00:00Z', health: extras };
    for (let index = 0; JSON.stringify(meta).length < SEALED_PLAINTEXT_MAX_BYTES - 500; index += 1) {
      apps.push({ package_name: `p${index}`, uid: 0, extra: zeros.slice(0, 120) });
      meta.applications = apps;
    }
    expect(JSON.stringify(meta).length).toBeLessThanOrEqual(SEALED_PLAINTEXT_MAX_BYTES);
    const parsed = TelemetryMeta.safeParse(meta);
    expect(parsed.success ? [] : formatIssues(parsed.error, 'meta').slice(0, 3)).toEqual([]);
    expect(itemSize({ ...STORED_EXTRAS, ...(parsed.data as Record<string, unknown>), received_at: '2025-01-01T00:00:00.000Z' })).toBeLessThan(
      DYNAMODB_ITEM_LIMIT_BYTES,
    );
  });

  it('the spec-sized lists that stay in sealed payload meta: 1000 call parties, 1000 pause times', () => {
    const party = { phone_number: '+'.padEnd(255, '4'), contact_name: 'c'.repeat(1000), direction: 'O', duration: 1 };
    const call = META_BY_TYPE.Call.safeParse({ payload_time: '2025-01-01T00:00:00Z', second_parties: Array.from({ length: CALL_PARTIES_LIMIT }, () => party) });
    expect(call.success).toBe(true);
    const interview = META_BY_TYPE.Interview.safeParse({
      payload_time: '2025-01-01T00:00:00Z',
      interview_pause_times: Array.from({ length: INTERVIEW_PAUSE_TIMES_LIMIT }, () => 1),
    });
    expect(interview.success).toBe(true);
    // Such meta is refused by its size when sealed (the envelope and the registration both bound it), not by a count.
    expect(JSON.stringify(call.data).length).toBeGreaterThan(SEALED_PLAINTEXT_MAX_BYTES);
  });
});

describe('DynamoDB item size arithmetic', () => {
  it('counts strings, numbers, booleans, lists and maps the way DynamoDB does', () => {
    expect(valueSize('żółw')).toBe(7);
    expect(valueSize(0)).toBe(2);
    expect(valueSize(123456)).toBe(4);
    expect(valueSize(true)).toBe(1);
    expect(valueSize(null)).toBe(1);
    expect(valueSize([])).toBe(3);
    expect(valueSize(['ab', 1])).toBe(3 + 1 + 2 + 1 + 2);
    expect(valueSize({ ab: 'cd' })).toBe(3 + 1 + 2 + 2);
    expect(itemSize({ pk: 'a', sk: 'b', skip: undefined })).toBe(6);
  });

  it('names the attribute that takes the most room', () => {
    expect(largestAttribute({ pk: 'x', tag_values: ['v'.repeat(100)], description: 'd'.repeat(50) })).toBe('tag_values');
    expect(largestAttribute({})).toBeUndefined();
  });
});

describe('the OpenAPI document shows the bounds', () => {
  const document = buildOpenApiDocument() as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>> };
  const bodyOf = (id: string): JsonSchema => {
    const endpoint = ENDPOINTS.find((candidate) => candidate.id === id);
    const operation = document.paths[endpoint?.fullPath ?? '']?.[endpoint?.method.toLowerCase() ?? ''];
    return operation?.requestBody?.content['application/json']?.schema as JsonSchema;
  };

  it('maxItems on role permissions and tag values, maxProperties and safe ranges on command params', () => {
    const role = bodyOf('admin.roles.put') as { properties: Record<string, JsonSchema> };
    expect(role.properties.permissions?.maxItems).toBe(ROLE_PERMISSIONS_MAX);
    const tag = bodyOf('admin.tags.put') as { properties: Record<string, { anyOf?: JsonSchema[]; maxItems?: number }> };
    const values = tag.properties.tag_values;
    expect(values?.maxItems ?? values?.anyOf?.find((branch) => branch.type === 'array')?.maxItems).toBe(TAG_VALUES_MAX);
    const command = bodyOf('admin.devices.commands.send') as { properties: Record<string, JsonSchema> };
    const params = command.properties.params as { maxProperties?: number; additionalProperties: { anyOf: JsonSchema[] } };
    expect(params.maxProperties).toBe(COMMAND_PARAMS_MAX);
    expect(params.additionalProperties.anyOf.find((branch) => branch.type === 'number')).toMatchObject({
      maximum: Number.MAX_SAFE_INTEGER,
      minimum: -Number.MAX_SAFE_INTEGER,
    });
    const log = bodyOf('device.logs.upload') as { properties: { logs: { items: { properties: Record<string, JsonSchema> } } } };
    expect(log.properties.logs.items.properties.log_message?.maxLength).toBe(LOG_MESSAGE_MAX);
    expect(SHORT_TEXT_MAX).toBe(255);
  });
});
