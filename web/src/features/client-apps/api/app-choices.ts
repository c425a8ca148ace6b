import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useCan } from '../../../lib/use-can.ts';

/** `GET roles` and `GET groups`: what an app's roles and group are picked from (first 100 of each). */
const listRoles = endpointOf(accessEndpoints, 'admin.roles.list');
const listGroups = endpointOf(accessEndpoints, 'admin.groups.list');

/** Role and group references to offer; empty when the user's roles do not allow listing them (the fields stay typable). */
export function useAppChoices() {
  const canRoles = useCan('roles:List').allowed;
  const canGroups = useCan('groups:List').allowed;
  const roles = useCursorList(listRoles, { query: { limit: '100' } }, { enabled: canRoles });
  const groups = useCursorList(listGroups, { query: { limit: '100' } }, { enabled: canGroups });
  return { roles: roles.items.map((role) => role.role_reference), groups: groups.items.map((group) => group.group_reference) };
}
