import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import { ENTITY as CORE_ENTITY, keys } from '#core/store/keys.ts';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import { STAFF_ROLES } from '#shared/permissions/staff-roles.ts';
import { DEMO_TENANTS, STAFF_CLIENT, demoAccounts } from './accounts.ts';

/**
 * First-start seed: the demo tenants, their system roles and the portal users of `accounts.ts`.
 *
 * Idempotent twice over: a marker item says the seed ran (so a user's later edits or deletions are not undone on
 * restart), and every put is conditional on the item not existing.
 * Keys come from the core store's key builders, so seeded items are exactly the ones the services read.
 */
export const SEED_VERSION = 'v3';

type Item = Record<string, unknown>;

/**
 * The read verbs of the action catalogue (`<area>:<Verb>`): the reviewer may use every one of them and nothing else.
 * `Summary` is the alert summary; `Read*` covers ReadHistory, ReadAudit, ReadDefaults and ReadMetadata.
 */
export const REVIEWER_PATTERNS = ['*:List', '*:Get', '*:Read', '*:Read?*', '*:Summary'] as const;

const allow = (pattern: string) => ({ actions_matching: pattern, is_denied: false, is_regex: false });

/** A system role item (contract `Role`): is_system, so the role service refuses to edit or delete it. */
function systemRole(client: string, reference: string, description: string, patterns: readonly string[], now: string): Item {
  const full = reference !== 'reviewer';
  return {
    ...keys.role.item(client, reference),
    client,
    role_reference: reference,
    description,
    permissions: patterns.map(allow),
    payload_types: [...PAYLOAD_TYPES],
    cidr_ranges: [],
    alert_permissions: { ops_read: true, ops_write: full, sec_read: full, sec_write: full },
    is_alertable: full,
    is_system: true,
    updated_at: now,
    updated_by: 'seed',
  };
}

const { partitionKey: PK, entityAttribute: ENTITY } = TABLE_KEYS;

/** The marker item's key: an account setting of the staff pseudo-client, so it too starts with `C#`. */
export function seedMarkerKey(): Item {
  return { ...keys.account.setting(STAFF_CLIENT, `LOCAL_SEED_${SEED_VERSION}`) };
}

/** Every item the seed writes, built without I/O (tested on its own). */
export function seedItems(now: string): Item[] {
  const items: Item[] = [];
  for (const client of DEMO_TENANTS) {
    items.push({
      ...keys.account.item(client),
      client,
      display_name: client === 'demo' ? 'Demo Ltd' : 'Acme plc',
      created_at: now,
      updated_at: now,
      updated_by: 'seed',
    });
    // Contract AccountDefaults: the role users without a known role get, and no account-wide CIDR limit.
    items.push({
      ...keys.account.setting(client, 'DEFAULTS'),
      [ENTITY]: CORE_ENTITY.account,
      setting: 'DEFAULTS',
      client,
      role: 'reviewer',
      cidr_ranges: [],
      updated_at: now,
      updated_by: 'seed',
    });
    items.push(
      systemRole(client, 'admin', 'Full access to the tenant', ['*'], now),
      systemRole(client, 'reviewer', 'Reads everything, changes nothing', REVIEWER_PATTERNS, now),
    );
  }
  // Provider staff: the system staff roles (shared/permissions/staff-roles.ts) in the staff pseudo-client, where the
  // role lists show them and support mode may grant one in a tenant.
  for (const role of Object.values(STAFF_ROLES)) {
    items.push({ ...keys.role.item(STAFF_CLIENT, role.role_reference), ...role, client: STAFF_CLIENT, updated_at: now, updated_by: 'seed' });
  }
  for (const account of demoAccounts()) {
    items.push({
      ...keys.portalUser.item(account.client, account.sub),
      client: account.client,
      user_reference: account.sub,
      email: account.email,
      first_name: account.firstName,
      surname: account.surname,
      roles: account.groups,
      user_group: '*',
      created_at: now,
      updated_at: now,
      updated_by: 'seed',
    });
  }
  return items;
}

/** Seeds once; answers whether it wrote anything. */
export async function seedOnce(client: DynamoDBClient, tableName: string, now = new Date()): Promise<boolean> {
  const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  const marker = await documents.send(new GetCommand({ TableName: tableName, Key: seedMarkerKey() }));
  if (marker.Item) return false;
  const stamp = now.toISOString();
  for (const item of seedItems(stamp)) {
    try {
      // System roles cannot be edited by users, so a newer seed replaces them (older seeds wrote invalid ones).
      const replace = item[ENTITY] === CORE_ENTITY.role && item.is_system === true;
      await documents.send(
        new PutCommand({
          TableName: tableName,
          Item: item,
          ...(replace ? {} : { ConditionExpression: `attribute_not_exists(${PK})` }),
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  await documents.send(
    new PutCommand({ TableName: tableName, Item: { ...seedMarkerKey(), [ENTITY]: 'LocalSeed', seeded_at: stamp } }),
  );
  return true;
}
