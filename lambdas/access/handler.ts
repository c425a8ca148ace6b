import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reply } from '#core/http/reply.ts';
import { implementForTenant } from '#core/http/route.ts';
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

/** A client app's roles with their place in the request, for the check that each lies within the caller's own. */
const appRoles = (roles: readonly string[]) => roles.map((role, i) => ({ path: `body.roles.${i}`, role }));

/** Lambda entry of the `access` group: roles, groups, tags, account defaults and client apps of a tenant. */
export const handler = createApiHandler({
  group: 'access',
  recorders: apiRecorders,
  endpoints: accessEndpoints,
  routes: {
    [rolesList.id]: implementForTenant(rolesList, ({ caller, query }) => listRoles(caller, query)),
    [rolesGet.id]: implementForTenant(rolesGet, ({ caller, params }) => getRole(caller, params.role_reference)),
    [rolesPut.id]: implementForTenant(rolesPut, async ({ caller, params, body }) => {
      await assertRolePutWithinOwn(caller, params.role_reference, body);
      return putRole(caller, params.role_reference, body);
    }),
    [rolesDelete.id]: implementForTenant(rolesDelete, async ({ caller, params }) => {
      await assertRoleDeleteWithinOwn(caller, params.role_reference);
      await deleteRole(caller, params.role_reference);
      return { ok: true as const };
    }),
    [clientRolesList.id]: implementForTenant(clientRolesList, ({ caller, query }) => listRoles(caller, query)),

    [groupsList.id]: implementForTenant(groupsList, ({ caller, query }) => listGroups(caller, query)),
    [groupsGet.id]: implementForTenant(groupsGet, ({ caller, params }) => getGroup(caller, params.group_reference)),
    [groupsPut.id]: implementForTenant(groupsPut, ({ caller, params, body }) => putGroup(caller, params.group_reference, body)),
    [groupsDelete.id]: implementForTenant(groupsDelete, async ({ caller, params }) => {
      await deleteGroup(caller, params.group_reference);
      return { ok: true as const };
    }),

    [tagsList.id]: implementForTenant(tagsList, ({ caller, query }) => listTags(caller, query)),
    [tagsGet.id]: implementForTenant(tagsGet, ({ caller, params }) => getTag(caller, params.tag_key)),
    [tagsPut.id]: implementForTenant(tagsPut, ({ caller, params, body }) => putTag(caller, params.tag_key, body)),
    [tagsDelete.id]: implementForTenant(tagsDelete, async ({ caller, params, query }) => {
      await deleteTag(caller, params.tag_key, forceOf(query));
      return { ok: true as const };
    }),

    [defaultsGet.id]: implementForTenant(defaultsGet, ({ caller }) => getAccountDefaults(caller)),
    [defaultsPut.id]: implementForTenant(defaultsPut, async ({ caller, body }) => {
      const role = body.role;
      await assertAssignedWithinOwn(caller, role === undefined ? [] : [{ path: 'body.role', role }]);
      return putAccountDefaults(caller, body);
    }),

    [appsList.id]: implementForTenant(appsList, ({ caller, query }) => listClientApps(caller, query)),
    [appsGet.id]: implementForTenant(appsGet, ({ caller, params }) => getClientApp(caller, params.app_reference)),
    [appsCreate.id]: implementForTenant(appsCreate, async ({ caller, params, body }) => {
      await assertAssignedWithinOwn(caller, appRoles(body.roles));
      return reply(await saveClientApp(caller, params.app_reference, body, 'create'), { status: 201 });
    }),
    [appsUpdate.id]: implementForTenant(appsUpdate, async ({ caller, params, body }) => {
      await assertAssignedWithinOwn(caller, appRoles(body.roles));
      return saveClientApp(caller, params.app_reference, body, 'replace');
    }),
    [appsDelete.id]: implementForTenant(appsDelete, async ({ caller, params }) => {
      await deleteClientApp(caller, params.app_reference);
      return { ok: true as const };
    }),
  },
});
