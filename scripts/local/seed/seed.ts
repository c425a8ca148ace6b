import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ENTITY as CORE_ENTITY, keys } from '#core/store/keys.ts';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import { STAFF_ROLES } from '#shared/permissions/staff-roles.ts';
import { portalUserItem, tenantItems, type Item } from '../../admin/tenant-items.ts';
import { DEMO_TENANTS, STAFF_CLIENT, demoAccounts } from './accounts.ts';

/**
 * First-start seed: the demo tenants, their system roles and the portal users of `accounts.ts`.
 *
 * Idempotent twice over: a marker item says the seed ran (so a user's later edits or deletions are not undone on
 * restart), and every put is conditional on the item not existing.
 * A tenant's items and a portal user's item come from `scripts/admin/tenant-items.ts`, the module the provisioning
 * command of a deployed stage uses too; keys come from the core store's key builders.
 */
// v4: the reviewer system role plays, views, comments and confirms receipts (a store seeded before gets it on start).
export const SEED_VERSION = 'v4';

const { partitionKey: PK, entityAttribute: ENTITY } = TABLE_KEYS;

/** The marker item's key: an account setting of the staff pseudo-client, so it too starts with `C#`. */
export function seedMarkerKey(): Item {
  return { ...keys.account.setting(STAFF_CLIENT, `LOCAL_SEED_${SEED_VERSION}`) };
}

/** Every item the seed writes, built without I/O (tested on its own). */
export function seedItems(now: string): Item[] {
  const items: Item[] = [];
  for (const client of DEMO_TENANTS) items.push(...tenantItems(client, client === 'demo' ? 'Demo Ltd' : 'Acme plc', now, 'seed'));
  // Provider staff: the system staff roles (shared/permissions/staff-roles.ts) in the staff pseudo-client, where the
  // role lists show them and support mode may grant one in a tenant.
  for (const role of Object.values(STAFF_ROLES)) {
    items.push({ ...keys.role.item(STAFF_CLIENT, role.role_reference), ...role, client: STAFF_CLIENT, updated_at: now, updated_by: 'seed' });
  }
  for (const account of demoAccounts()) {
    items.push(portalUserItem({ ...account, roles: account.groups }, now, 'seed'));
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
