import type { TenantCaller } from '#core/http/caller.ts';
import { securityAlertWrites } from '../../alerts/public.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { ConditionFailedError, type WriteCondition } from '#core/ports/table-store.ts';
import { readRole, roleToItem, toRole } from '#core/store/entities/role.ts';
import { keys } from '#core/store/keys.ts';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import type { Role, RoleRequest } from '#shared/contract/entities/roles.ts';
import { getAccountDefaults } from '../account/account-defaults.ts';
import { accountDefaultsKey } from '#core/store/entities/account-defaults.ts';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import { listPage, type QueryOf } from '#core/store/paging.ts';
import type { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { rolePatternIssues } from './role-patterns.ts';
import { deletionWidening, roleWidening } from './role-widening.ts';
import { versionWrites } from '../../audit/public.ts';

export const SYSTEM_ROLE_MESSAGE = 'System roles cannot be changed';
export const DEFAULT_ROLE_MESSAGE = 'The role is the account default role';

/**
 * Writes and deletes hold only while the stored role is not a system role (a concurrent seed or migration);
 * a delete also needs the role to exist.
 */
const notSystem = (mustExist: boolean): WriteCondition => ({
  kind: 'expression',
  expression: mustExist ? 'attribute_exists(#cpk) AND NOT (#csys = :ctrue)' : 'attribute_not_exists(#cpk) OR NOT (#csys = :ctrue)',
  names: { '#cpk': TABLE_KEYS.partitionKey, '#csys': 'is_system' },
  values: { ':ctrue': true },
});

export function listRoles(caller: TenantCaller, query: QueryOf<typeof accessEndpoints, 'admin.roles.list'>) {
  const { deps: dependencies, tenant: client } = caller;
  return listPage(dependencies, { client, query: keys.role.list(client, query.starts_with), page: query, toData: (item) => toRole(readRole(item)) });
}

export async function getRole(caller: TenantCaller, roleReference: string): Promise<Role> {
  const { deps: dependencies, tenant: client } = caller;
  const item = await dependencies.table.get(keys.role.item(client, roleReference));
  if (item === undefined) throw new NotFoundError('Role not found');
  return toRole(readRole(item));
}

/**
 * Creates or replaces a role. System roles are refused (409); every regex matcher must compile under RE2 (400). The
 * role and its sec alert (High when it now grants more than before) are one transaction: no change goes unreported.
 */
export async function putRole(caller: TenantCaller, roleReference: string, request: RoleRequest): Promise<Role> {
  const { deps: dependencies, tenant: client, principal } = caller;
  const issues = rolePatternIssues(request);
  if (issues.length > 0) throw new ValidationError(issues);
  const role: Role = {
    client,
    role_reference: roleReference,
    permissions: request.permissions,
    payload_types: request.payload_types,
    cidr_ranges: request.cidr_ranges,
    alert_permissions: request.alert_permissions,
    is_alertable: request.is_alertable,
    ...(request.description === undefined ? {} : { description: request.description }),
    is_system: false,
    updated_by: actorOf(principal),
    updated_by_actor: actorRecordOf(principal),
    updated_at: dependencies.clock.now().toISOString(),
  };
  // The role as it was words the alert (created or replaced, and what it grants now that it did not); the stored
  // item must still be that one when the write lands, so a change made meanwhile cannot go unweighed.
  const storedItem = await dependencies.table.get(keys.role.item(client, roleReference), { consistent: true });
  const stored = storedItem === undefined ? undefined : readRole(storedItem);
  const alert = securityAlertWrites(dependencies, client, {
    kind: 'role-changed',
    change: stored === undefined ? 'created' : 'replaced',
    role: roleReference,
    grantsMore: roleWidening(stored, { ...request, role_reference: roleReference }),
    actor: actorRecordOf(principal),
    ip: caller.access?.ip,
  });
  try {
    await dependencies.table.transactWrite([
      { kind: 'put', item: roleToItem(client, role), condition: unchangedSince(stored) },
      ...alert,
      // The role as it was, kept with the change (a new role replaces nothing).
      ...(storedItem === undefined ? [] : versionWrites(caller, [{ entity: 'role', reference: roleReference, stored: storedItem, change: 'updated' }])),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    const now = await dependencies.table.get(keys.role.item(client, roleReference), { consistent: true });
    if (now !== undefined && readRole(now).is_system) throw new ConflictError(SYSTEM_ROLE_MESSAGE);
    throw new ConflictError(ROLE_CHANGED_MESSAGE);
  }
  return role;
}

export const ROLE_CHANGED_MESSAGE = 'The role changed meanwhile; try again';

/**
 * The write holds only while the role is as read: absent, or the same non-system role last written at the same time
 * (a system role is refused by `notSystem`).
 */
function unchangedSince(stored: Role | undefined): WriteCondition {
  if (stored === undefined) return { kind: 'item-not-exists' };
  if (stored.is_system === true || stored.updated_at === undefined) return notSystem(true);
  const guard = notSystem(true) as Extract<WriteCondition, { kind: 'expression' }>;
  return {
    kind: 'expression',
    expression: `${guard.expression} AND #cat = :cat`,
    names: { ...guard.names, '#cat': 'updated_at' },
    values: { ...guard.values, ':cat': stored.updated_at },
  };
}

/**
 * Deletes a role: unknown 404; system role or the account default role 409. The delete and a check that the
 * defaults do not name the role are one transaction (defaults PUT checks the other direction).
 */
export async function deleteRole(caller: TenantCaller, roleReference: string): Promise<void> {
  const { deps: dependencies, tenant: client } = caller;
  const assertDeletable = async () => {
    const role = await dependencies.table.get(keys.role.item(client, roleReference), { consistent: true });
    if (role === undefined) throw new NotFoundError('Role not found');
    if (readRole(role).is_system) throw new ConflictError(SYSTEM_ROLE_MESSAGE);
    const defaults = await getAccountDefaults(caller);
    if (defaults.role === roleReference) throw new ConflictError(DEFAULT_ROLE_MESSAGE);
  };
  await assertDeletable();
  const storedItem = await dependencies.table.get(keys.role.item(client, roleReference), { consistent: true });
  if (storedItem === undefined) throw new NotFoundError('Role not found');
  const stored = readRole(storedItem);
  const alert = securityAlertWrites(dependencies, client, {
    kind: 'role-changed',
    change: 'deleted',
    role: roleReference,
    grantsMore: deletionWidening(stored),
    actor: actorRecordOf(caller.principal),
    ip: caller.access?.ip,
  });
  const { pk, sk } = keys.role.item(client, roleReference);
  try {
    await dependencies.table.transactWrite([
      {
        kind: 'delete',
        key: { pk, sk },
        condition: unchangedSince(stored),
      },
      ...versionWrites(caller, [{ entity: 'role', reference: roleReference, stored: storedItem, change: 'deleted' }]),
      {
        kind: 'check',
        key: accountDefaultsKey(client),
        condition: {
          kind: 'expression',
          expression: 'attribute_not_exists(#cpk) OR NOT (#crole = :cref)',
          names: { '#cpk': TABLE_KEYS.partitionKey, '#crole': 'role' },
          values: { ':cref': roleReference },
        },
      },
      ...alert,
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    // Something changed between the read and the write: answer what is true now.
    await assertDeletable();
    throw new ConflictError(ROLE_CHANGED_MESSAGE);
  }
}
