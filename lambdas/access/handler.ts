import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reply } from '#core/http/reply.ts';
import { implementForTenant, type RouteInput } from '#core/http/route.ts';
import type { Changer } from './access-lists.ts';
import { getAccountDefaults, putAccountDefaults } from './account/account-defaults.ts';
import { deleteClientApp, getClientApp, listClientApps, saveClientApp } from './apps/client-apps.ts';
import { deleteGroup, getGroup, listGroups, putGroup } from './groups/groups.ts';
import { assertAssignedWithinOwn, assertRoleDeleteWithinOwn, assertRolePutWithinOwn } from './roles/grant-guard.ts';
import { deleteRole, getRole, listRoles, putRole } from './roles/roles.ts';
import { deleteTag, getTag, listTags, putTag } from './tags/tags.ts';
import { apiRecorders } from '../api-recorders.ts';

/** The group's endpoints, picked by id: the compiler refuses an id the group lacks and types each route by it. */
const rolesList = endpointOf(accessEndpoints, 'admin.roles.list');
const rolesGet = endpointOf(accessEndpoints, 'admin.roles.get');
const rolesPut = endpointOf(accessEndpoints, 'admin.roles.put');
const rolesDelete = endpointOf(accessEndpoints, 'admin.roles.delete');
const clientRolesList = endpointOf(accessEndpoints, 'internal.clients.roles.list');
const groupsList = endpointOf(accessEndpoints, 'admin.groups.list');
const groupsGet = endpointOf(accessEndpoints, 'admin.groups.get');
const groupsPut = endpointOf(accessEndpoints, 'admin.groups.put');
const groupsDelete = endpointOf(accessEndpoints, 'admin.groups.delete');
const tagsList = endpointOf(accessEndpoints, 'admin.tags.list');
const tagsGet = endpointOf(accessEndpoints, 'admin.tags.get');
const tagsPut = endpointOf(accessEndpoints, 'admin.tags.put');
const tagsDelete = endpointOf(accessEndpoints, 'admin.tags.delete');
const defaultsGet = endpointOf(accessEndpoints, 'admin.account.defaults.get');
const defaultsPut = endpointOf(accessEndpoints, 'admin.account.defaults.put');
const appsList = endpointOf(accessEndpoints, 'admin.apps.list');
const appsGet = endpointOf(accessEndpoints, 'admin.apps.get');
const appsCreate = endpointOf(accessEndpoints, 'admin.apps.create');
const appsUpdate = endpointOf(accessEndpoints, 'admin.apps.update');
const appsDelete = endpointOf(accessEndpoints, 'admin.apps.delete');

/**
 * `force_update` on a tag DELETE. The contract gives that endpoint no query yet (a strict empty one refuses it), so
 * this reads it only once the contract declares it; until then a delete of a used tag always answers 409.
 */
function forceOf(query: object): boolean {
  return (query as { force_update?: unknown }).force_update === true;
}

/** Who changes a role or a client app and from where, as the change's sec alert names them. */
const changerOf = (input: RouteInput): Changer => ({ principal: input.principal, ip: input.access?.ip });

/** A client app's roles with their place in the request, for the check that each lies within the caller's own. */
const appRoles = (roles: readonly string[]) => roles.map((role, i) => ({ path: `body.roles.${i}`, role }));

/** Lambda entry of the `access` group: roles, groups, tags, account defaults and client apps of a tenant. */
export const handler = createApiHandler({
  group: 'access',
  recorders: apiRecorders,
  endpoints: accessEndpoints,
  routes: {
    [rolesList.id]: implementForTenant(rolesList, (input, deps) => listRoles(deps, input.client, input.query)),
    [rolesGet.id]: implementForTenant(rolesGet, (input, deps) => getRole(deps, input.client, input.params.role_reference)),
    [rolesPut.id]: implementForTenant(rolesPut, async (input, deps) => {
      await assertRolePutWithinOwn(deps.table, input.client, input.params.role_reference, input.body, input.access);
      return putRole(deps, input.client, input.params.role_reference, input.body, changerOf(input));
    }),
    [rolesDelete.id]: implementForTenant(rolesDelete, async (input, deps) => {
      await assertRoleDeleteWithinOwn(deps.table, input.client, input.params.role_reference, input.access);
      await deleteRole(deps, input.client, input.params.role_reference, changerOf(input));
      return { ok: true as const };
    }),
    [clientRolesList.id]: implementForTenant(clientRolesList, (input, deps) => listRoles(deps, input.client, input.query)),

    [groupsList.id]: implementForTenant(groupsList, (input, deps) => listGroups(deps, input.client, input.query)),
    [groupsGet.id]: implementForTenant(groupsGet, (input, deps) => getGroup(deps, input.client, input.params.group_reference)),
    [groupsPut.id]: implementForTenant(groupsPut, (input, deps) =>
      putGroup(deps, input.client, input.params.group_reference, input.body, input.principal),
    ),
    [groupsDelete.id]: implementForTenant(groupsDelete, async (input, deps) => {
      await deleteGroup(deps, input.client, input.params.group_reference);
      return { ok: true as const };
    }),

    [tagsList.id]: implementForTenant(tagsList, (input, deps) => listTags(deps, input.client, input.query)),
    [tagsGet.id]: implementForTenant(tagsGet, (input, deps) => getTag(deps, input.client, input.params.tag_key)),
    [tagsPut.id]: implementForTenant(tagsPut, (input, deps) => putTag(deps, input.client, input.params.tag_key, input.body, input.principal)),
    [tagsDelete.id]: implementForTenant(tagsDelete, async (input, deps) => {
      await deleteTag(deps, input.client, input.params.tag_key, forceOf(input.query));
      return { ok: true as const };
    }),

    [defaultsGet.id]: implementForTenant(defaultsGet, (input, deps) => getAccountDefaults(deps, input.client)),
    [defaultsPut.id]: implementForTenant(defaultsPut, async (input, deps) => {
      const role = input.body.role;
      await assertAssignedWithinOwn(deps.table, input.client, role === undefined ? [] : [{ path: 'body.role', role }], input.access);
      return putAccountDefaults(deps, input.client, input.body, input.principal);
    }),

    [appsList.id]: implementForTenant(appsList, (input, deps) => listClientApps(deps, input.client, input.query)),
    [appsGet.id]: implementForTenant(appsGet, (input, deps) => getClientApp(deps, input.client, input.params.app_reference)),
    [appsCreate.id]: implementForTenant(appsCreate, async (input, deps) => {
      await assertAssignedWithinOwn(deps.table, input.client, appRoles(input.body.roles), input.access);
      return reply(await saveClientApp(deps, input.client, input.params.app_reference, input.body, changerOf(input), 'create'), {
        status: 201,
      });
    }),
    [appsUpdate.id]: implementForTenant(appsUpdate, async (input, deps) => {
      await assertAssignedWithinOwn(deps.table, input.client, appRoles(input.body.roles), input.access);
      return saveClientApp(deps, input.client, input.params.app_reference, input.body, changerOf(input), 'replace');
    }),
    [appsDelete.id]: implementForTenant(appsDelete, async (input, deps) => {
      await deleteClientApp(deps, input.client, input.params.app_reference);
      return { ok: true as const };
    }),
  },
});
