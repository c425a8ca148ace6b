import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#core/store/keys.ts';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import { DEMO_TENANTS, STAFF_CLIENT, demoAccounts } from './accounts.ts';

/**
 * First-start seed: the demo tenants, their system roles and the portal users of `accounts.ts`.
 *
 * Idempotent twice over: a marker item says the seed ran (so a user's later edits or deletions are not undone on
 * restart), and every put is conditional on the item not existing.
 * Keys come from the core store's key builders, so seeded items are exactly the ones the services read.
 */
export const SEED_VERSION = 'v1';

type Item = Record<string, unknown>;

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
      account_defaults: { user_group: '*', role: 'reviewer', cidr_ranges: [] },
      created_at: now,
      updated_at: now,
      updated_by: 'seed',
    });
    items.push(
      {
        ...keys.role.item(client, 'admin'),
        client,
        role_reference: 'admin',
        description: 'Full access to the tenant',
        permissions: [{ actions_matching: ['*'], is_denied: false, is_regex: false, conditions: [] }],
        payload_types: [],
        cidr_ranges: [],
        alert_permissions: { ops_read: true, ops_write: true, sec_read: true, sec_write: true },
        is_alertable: true,
        is_system: true,
        updated_at: now,
        updated_by: 'seed',
      },
      {
        ...keys.role.item(client, 'reviewer'),
        client,
        role_reference: 'reviewer',
        description: 'Reads devices and reviews payloads',
        permissions: [{ actions_matching: ['*:List', '*:Get', 'payloads:Play'], is_denied: false, is_regex: false, conditions: [] }],
        payload_types: [],
        cidr_ranges: [],
        alert_permissions: { ops_read: true, ops_write: false, sec_read: false, sec_write: false },
        is_alertable: false,
        is_system: true,
        updated_at: now,
        updated_by: 'seed',
      },
    );
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
      await documents.send(
        new PutCommand({ TableName: tableName, Item: item, ConditionExpression: `attribute_not_exists(${PK})` }),
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
