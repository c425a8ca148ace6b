import { raiseSecurityAlert, type RoleChanged } from '../../alerts/security-events.ts';
import type { Principal } from '#core/auth/principal.ts';
import type { Dependencies } from '#core/dependencies.ts';
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
import type { AccessDependencies } from '../access-lists.ts';
import { rolePatternIssues } from './role-patterns.ts';

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

/** The services that change roles also raise the security alert (and log when it cannot be raised). */
type ChangeDependencies = AccessDependencies & Pick<Dependencies, 'logger'>;

/** Who changed a role, for its sec alert: the email a portal user's token carries, else the stored actor id. */
function changedBy(principal: Principal | undefined): Pick<RoleChanged, 'by' | 'byUserId'> {
  if (principal?.kind === 'user') return { by: principal.email ?? principal.subject, byUserId: principal.subject };
  if (principal?.kind === 'client-app') return { by: actorOf(principal), byUserId: principal.appReference };
  return { by: actorOf(principal) };
}

export function listRoles(dependencies: AccessDependencies, client: string, query: QueryOf<typeof accessEndpoints, 'admin.roles.list'>) {
  return listPage(dependencies, { client, query: keys.role.list(client, query.starts_with), page: query, toData: (item) => toRole(readRole(item)) });
}

export async function getRole(dependencies: Pick<AccessDependencies, 'table'>, client: string, roleReference: string): Promise<Role> {
  const item = await dependencies.table.get(keys.role.item(client, roleReference));
  if (item === undefined) throw new NotFoundError('Role not found');
  return toRole(readRole(item));
}

/** Creates or replaces a role. System roles are refused (409); every regex matcher must compile under RE2 (400). */
export async function putRole(
  dependencies: ChangeDependencies,
  client: string,
  roleReference: string,
  request: RoleRequest,
  principal: Principal | undefined,
): Promise<Role> {
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
  // Only to word the alert (created or replaced); the write's condition is what guards the role.
  const existed = (await dependencies.table.get(keys.role.item(client, roleReference), { consistent: true })) !== undefined;
  try {
    await dependencies.table.put(roleToItem(client, role), { condition: notSystem(false) });
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ConflictError(SYSTEM_ROLE_MESSAGE);
    throw error;
  }
  const change = existed ? 'replaced' : 'created';
  await raiseSecurityAlert(dependencies, client, { kind: 'role-changed', change, role: roleReference, ...changedBy(principal) });
  return role;
}

/**
 * Deletes a role: unknown 404; system role or the account default role 409. The delete and a check that the
 * defaults do not name the role are one transaction (defaults PUT checks the other direction).
 */
export async function deleteRole(
  dependencies: ChangeDependencies,
  client: string,
  roleReference: string,
  principal: Principal | undefined,
): Promise<void> {
  const assertDeletable = async () => {
    const role = await dependencies.table.get(keys.role.item(client, roleReference), { consistent: true });
    if (role === undefined) throw new NotFoundError('Role not found');
    if (readRole(role).is_system) throw new ConflictError(SYSTEM_ROLE_MESSAGE);
    const defaults = await getAccountDefaults(dependencies, client);
    if (defaults.role === roleReference) throw new ConflictError(DEFAULT_ROLE_MESSAGE);
  };
  await assertDeletable();
  const { pk, sk } = keys.role.item(client, roleReference);
  try {
    await dependencies.table.transactWrite([
      {
        kind: 'delete',
        key: { pk, sk },
        condition: notSystem(true),
      },
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
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    // Something changed between the read and the write: answer what is true now.
    await assertDeletable();
    throw new ConflictError('The role changed meanwhile; try again');
  }
  await raiseSecurityAlert(dependencies, client, { kind: 'role-changed', change: 'deleted', role: roleReference, ...changedBy(principal) });
}
