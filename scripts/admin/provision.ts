import { randomInt } from 'node:crypto';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  type AttributeType,
  type CognitoIdentityProviderClient,
  CreateGroupCommand,
  GetGroupCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import { CLIENT_ATTRIBUTE } from '../../lib/constructs/portal-user-pool.ts';
import { ProvisioningError } from './stage-resources.ts';
import { portalUserItem, type Item, type PortalUser } from './tenant-items.ts';

/**
 * The writes of the provisioning commands, each idempotent: an item is put only where none exists, a Cognito user
 * is created only when the pool has none under that e-mail, a group only when missing. Every step answers what it
 * did, so a second run can say that nothing changed.
 */

/** One step's outcome, as the command prints it. */
export interface Step {
  what: string;
  changed: boolean;
  /** Said after the outcome (e.g. where the temporary password went). */
  note?: string;
  /** What a change was, when not a creation (a system role brought up to date: `updated`). */
  verb?: string;
}

/** The custom attribute as Cognito names it in the user's attributes and the id token. */
const CLIENT_CLAIM = `custom:${CLIENT_ATTRIBUTE}`;

/** Puts `item` unless an item with its key exists (an existing one is never overwritten). */
export async function putIfAbsent(documents: DynamoDBDocumentClient, tableName: string, item: Item, what: string): Promise<Step> {
  try {
    await documents.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: `attribute_not_exists(${TABLE_KEYS.partitionKey})` }));
    return { what, changed: true };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return { what, changed: false };
    if (error instanceof Error && error.name === 'ResourceNotFoundException') {
      throw new ProvisioningError(`Table ${tableName} does not exist here: check --table, --stage and AWS_REGION.`);
    }
    throw error;
  }
}

/** A value as JSON with every object's keys sorted: DynamoDB answers a map's keys in no set order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** What makes a system role what it is; `updated_at` and `updated_by` say only when a run wrote it. */
const ROLE_FIELDS = ['description', 'permissions', 'payload_types', 'cidr_ranges', 'alert_permissions', 'is_alertable'] as const;

/**
 * Puts a tenant's system role (`is_system`): created where missing, REWRITTEN where the stored one differs from this
 * version's, so a tenant provisioned before a system role changed (the reviewer gaining play, comment and receipts)
 * gets the change on the next run. Safe because a system role is the product's, never a user's: the role service
 * refuses to edit or delete it. A same-named role that is not a system role is left as it is, and said so.
 */
export async function putSystemRole(documents: DynamoDBDocumentClient, tableName: string, item: Item, what: string): Promise<Step> {
  const key = { [TABLE_KEYS.partitionKey]: item[TABLE_KEYS.partitionKey], [TABLE_KEYS.sortKey]: item[TABLE_KEYS.sortKey] };
  const stored = (await documents.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
  if (stored === undefined) return putIfAbsent(documents, tableName, item, what);
  if (stored.is_system !== true) return { what, changed: false, note: 'a role of this name that is not a system role: left as it is' };
  if (ROLE_FIELDS.every((field) => canonical(stored[field]) === canonical(item[field]))) return { what, changed: false };
  try {
    await documents.send(
      new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'is_system = :system', ExpressionAttributeValues: { ':system': true } }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return { what, changed: false, note: 'replaced by a role that is not a system role meanwhile: left as it is' };
    throw error;
  }
  return { what, changed: true, verb: 'updated' };
}

/** Creates a Cognito group of `userPoolId` unless it exists (the tenants pool's groups are the tenants' role names). */
export async function ensureGroup(cognito: CognitoIdentityProviderClient, userPoolId: string, group: string, description: string): Promise<Step> {
  const what = `Cognito group ${group}`;
  try {
    await cognito.send(new GetGroupCommand({ UserPoolId: userPoolId, GroupName: group }));
    return { what, changed: false };
  } catch (error) {
    if (!(error instanceof Error && error.name === 'ResourceNotFoundException')) throw missingPool(error, userPoolId);
  }
  try {
    await cognito.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: group, Description: description }));
    return { what, changed: true };
  } catch (error) {
    // Another run created it between the two calls: the group is there, which is what was asked.
    if (error instanceof Error && error.name === 'GroupExistsException') return { what, changed: false };
    throw error;
  }
}

/** A user pool that does not exist is named as such; other errors pass unchanged. */
function missingPool(error: unknown, userPoolId: string): unknown {
  if (error instanceof Error && error.name === 'ResourceNotFoundException' && /pool/i.test(error.message)) {
    return new ProvisioningError(`User pool ${userPoolId} does not exist here: check --user-pool, --stage and AWS_REGION.`);
  }
  return error;
}

/**
 * A temporary password meeting the pools' policy (lib/constructs/portal-user-pool.ts: 12 or more characters with
 * lower case, upper case, digits and symbols); Cognito makes the user replace it at the first sign-in.
 */
export function temporaryPassword(): string {
  const sets = ['abcdefghijkmnopqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '!#%+-=?@^_'];
  const all = sets.join('');
  const chars = [...sets.map((set) => set[randomInt(set.length)]), ...Array.from({ length: 16 }, () => all[randomInt(all.length)])];
  // Shuffle (Fisher-Yates) so the guaranteed characters are not always first.
  for (let index = chars.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [chars[index], chars[other]] = [chars[other], chars[index]];
  }
  return chars.join('');
}

export interface CognitoUserRequest {
  userPoolId: string;
  email: string;
  /** The group (role) the user must be in. */
  group: string;
  /** The tenant (`custom:client`) for the tenants pool; undefined in the staff pool, which has no such attribute. */
  client?: string;
  /** `email`: Cognito e-mails a temporary password; `print`: the command makes one and answers it instead. */
  delivery: 'email' | 'print';
}

export interface CognitoUserResult {
  steps: Step[];
  /** The user's subject: the portal user reference. */
  sub: string;
  /** Only with delivery `print` and a newly created user. */
  temporaryPassword?: string;
}

const attribute = (attributes: readonly AttributeType[] | undefined, name: string) => attributes?.find((entry) => entry.Name === name)?.Value;

/**
 * Makes sure `email` is a user of the pool, in `group`, of `client`. A user created now is put in the group; an
 * existing one is accepted only if it already is exactly that (same tenant, in the group): anything else is
 * refused with what differs, and nothing is changed, because moving a person between tenants or roles is a
 * decision for the portal's administrators, not a side effect of provisioning.
 */
export async function ensureCognitoUser(cognito: CognitoIdentityProviderClient, request: CognitoUserRequest): Promise<CognitoUserResult> {
  const { userPoolId, email, group, client } = request;
  const what = `user ${email}`;
  const existing = await findUser(cognito, userPoolId, email);
  if (existing !== undefined) {
    const sub = attribute(existing.attributes, 'sub');
    if (sub === undefined) throw new ProvisioningError(`${email} exists in pool ${userPoolId} without a sub attribute.`);
    const theirs = attribute(existing.attributes, CLIENT_CLAIM);
    if (client !== undefined && theirs !== client) {
      throw new ProvisioningError(`${email} already exists in the tenants pool${theirs === undefined ? ' without a client' : ` as a user of ${theirs}`}; nothing changed.`);
    }
    const groups = await groupsOf(cognito, userPoolId, email);
    if (!groups.includes(group)) {
      const held = groups.length === 0 ? 'no role' : `role ${groups.join(', ')}`;
      throw new ProvisioningError(`${email} already exists with ${held}, not ${group}; nothing changed (change roles in the portal or the Cognito console).`);
    }
    return { steps: [{ what, changed: false }, { what: `${email} in group ${group}`, changed: false }], sub };
  }

  const password = request.delivery === 'print' ? temporaryPassword() : undefined;
  let created;
  try {
    created = await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: email,
        UserAttributes: [
          { Name: 'email', Value: email },
          // The operator vouches for the address; Cognito's account recovery sends its codes there.
          { Name: 'email_verified', Value: 'true' },
          ...(client === undefined ? [] : [{ Name: CLIENT_CLAIM, Value: client }]),
        ],
        ...(password === undefined ? { DesiredDeliveryMediums: ['EMAIL' as const] } : { TemporaryPassword: password, MessageAction: 'SUPPRESS' as const }),
      }),
    );
  } catch (error) {
    throw missingPool(error, userPoolId);
  }
  const sub = attribute(created.User?.Attributes, 'sub');
  if (sub === undefined) throw new ProvisioningError(`Cognito created ${email} but answered no sub attribute; run the command again.`);
  await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: email, GroupName: group }));
  return {
    steps: [
      { what, changed: true, note: password === undefined ? 'Cognito e-mails a temporary password' : 'temporary password printed below' },
      { what: `${email} in group ${group}`, changed: true },
    ],
    sub,
    ...(password === undefined ? {} : { temporaryPassword: password }),
  };
}

async function findUser(cognito: CognitoIdentityProviderClient, userPoolId: string, email: string): Promise<{ attributes: AttributeType[] } | undefined> {
  try {
    const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
    return { attributes: user.UserAttributes ?? [] };
  } catch (error) {
    if (error instanceof Error && error.name === 'UserNotFoundException') return undefined;
    throw missingPool(error, userPoolId);
  }
}

async function groupsOf(cognito: CognitoIdentityProviderClient, userPoolId: string, email: string): Promise<string[]> {
  const groups: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await cognito.send(new AdminListGroupsForUserCommand({ UserPoolId: userPoolId, Username: email, ...(nextToken ? { NextToken: nextToken } : {}) }));
    for (const group of page.Groups ?? []) if (group.GroupName !== undefined) groups.push(group.GroupName);
    nextToken = page.NextToken;
  } while (nextToken !== undefined);
  return groups;
}

/** The portal user item of a Cognito user, written unless it exists. */
export async function ensurePortalUserItem(documents: DynamoDBDocumentClient, tableName: string, user: PortalUser, now: string): Promise<Step> {
  return putIfAbsent(documents, tableName, portalUserItem(user, now, 'provisioning'), `portal user item of ${user.email}`);
}
