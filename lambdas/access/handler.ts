import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reply } from '#core/http/reply.ts';
import { implement, type RouteInput } from '#core/http/route.ts';
import { getAccountDefaults, putAccountDefaults } from './account/account-defaults.ts';
import { deleteClientApp, getClientApp, listClientApps, saveClientApp } from './apps/client-apps.ts';
import { deleteGroup, getGroup, listGroups, putGroup } from './groups/groups.ts';
import { deleteRole, getRole, listRoles, putRole } from './roles/roles.ts';
import { deleteTag, getTag, listTags, putTag } from './tags/tags.ts';

/**
 * The group's endpoints, in the contract's order. Contract ids are plain strings to the type system, so the order
 * is what types each route; `named` checks at load that each one is the endpoint its name says.
 */
const [
  rolesList,
  rolesGet,
  rolesPut,
  rolesDelete,
  groupsList,
  groupsGet,
  groupsPut,
  groupsDelete,
  tagsList,
  tagsGet,
  tagsPut,
  tagsDelete,
  defaultsGet,
  defaultsPut,
  appsList,
  appsGet,
  appsCreate,
  appsUpdate,
  appsDelete,
  clientRolesList,
] = accessEndpoints;

const expected: Array<[{ id: string }, string]> = [
  [rolesList, 'admin.roles.list'],
  [rolesGet, 'admin.roles.get'],
  [rolesPut, 'admin.roles.put'],
  [rolesDelete, 'admin.roles.delete'],
  [groupsList, 'admin.groups.list'],
  [groupsGet, 'admin.groups.get'],
  [groupsPut, 'admin.groups.put'],
  [groupsDelete, 'admin.groups.delete'],
  [tagsList, 'admin.tags.list'],
  [tagsGet, 'admin.tags.get'],
  [tagsPut, 'admin.tags.put'],
  [tagsDelete, 'admin.tags.delete'],
  [defaultsGet, 'admin.account.defaults.get'],
  [defaultsPut, 'admin.account.defaults.put'],
  [appsList, 'admin.apps.list'],
  [appsGet, 'admin.apps.get'],
  [appsCreate, 'admin.apps.create'],
  [appsUpdate, 'admin.apps.update'],
  [appsDelete, 'admin.apps.delete'],
  [clientRolesList, 'internal.clients.roles.list'],
];
for (const [endpoint, id] of expected) {
  if (endpoint.id !== id) throw new Error(`access handler expected ${id}, found ${endpoint.id}`);
}

/** Every endpoint of the group has `{client}` in its path; the router checked it against the caller's tenant. */
function clientOf(input: Pick<RouteInput, 'client'>): string {
  if (input.client === undefined) throw new Error('access routes need the path client');
  return input.client;
}

/**
 * `force_update` on a tag DELETE. The contract gives that endpoint no query yet (a strict empty one refuses it), so
 * this reads it only once the contract declares it; until then a delete of a used tag always answers 409.
 */
function forceOf(query: object): boolean {
  return (query as { force_update?: unknown }).force_update === true;
}

/** Lambda entry of the `access` group: roles, groups, tags, account defaults and client apps of a tenant. */
export const handler = createApiHandler({
  group: 'access',
  endpoints: accessEndpoints,
  routes: {
    [rolesList.id]: implement(rolesList, (input, deps) => listRoles(deps, clientOf(input), input.query)),
    [rolesGet.id]: implement(rolesGet, (input, deps) => getRole(deps, clientOf(input), input.params.role_reference)),
    [rolesPut.id]: implement(rolesPut, (input, deps) =>
      putRole(deps, clientOf(input), input.params.role_reference, input.body, input.principal),
    ),
    [rolesDelete.id]: implement(rolesDelete, async (input, deps) => {
      await deleteRole(deps, clientOf(input), input.params.role_reference, input.principal);
      return { ok: true as const };
    }),
    [clientRolesList.id]: implement(clientRolesList, (input, deps) => listRoles(deps, clientOf(input), input.query)),

    [groupsList.id]: implement(groupsList, (input, deps) => listGroups(deps, clientOf(input), input.query)),
    [groupsGet.id]: implement(groupsGet, (input, deps) => getGroup(deps, clientOf(input), input.params.group_reference)),
    [groupsPut.id]: implement(groupsPut, (input, deps) =>
      putGroup(deps, clientOf(input), input.params.group_reference, input.body, input.principal),
    ),
    [groupsDelete.id]: implement(groupsDelete, async (input, deps) => {
      await deleteGroup(deps, clientOf(input), input.params.group_reference);
      return { ok: true as const };
    }),

    [tagsList.id]: implement(tagsList, (input, deps) => listTags(deps, clientOf(input), input.query)),
    [tagsGet.id]: implement(tagsGet, (input, deps) => getTag(deps, clientOf(input), input.params.tag_key)),
    [tagsPut.id]: implement(tagsPut, (input, deps) => putTag(deps, clientOf(input), input.params.tag_key, input.body, input.principal)),
    [tagsDelete.id]: implement(tagsDelete, async (input, deps) => {
      await deleteTag(deps, clientOf(input), input.params.tag_key, forceOf(input.query));
      return { ok: true as const };
    }),

    [defaultsGet.id]: implement(defaultsGet, (input, deps) => getAccountDefaults(deps, clientOf(input))),
    [defaultsPut.id]: implement(defaultsPut, (input, deps) => putAccountDefaults(deps, clientOf(input), input.body, input.principal)),

    [appsList.id]: implement(appsList, (input, deps) => listClientApps(deps, clientOf(input), input.query)),
    [appsGet.id]: implement(appsGet, (input, deps) => getClientApp(deps, clientOf(input), input.params.app_reference)),
    [appsCreate.id]: implement(appsCreate, async (input, deps) =>
      reply(await saveClientApp(deps, clientOf(input), input.params.app_reference, input.body, input.principal, 'create'), {
        status: 201,
      }),
    ),
    [appsUpdate.id]: implement(appsUpdate, (input, deps) =>
      saveClientApp(deps, clientOf(input), input.params.app_reference, input.body, input.principal, 'replace'),
    ),
    [appsDelete.id]: implement(appsDelete, async (input, deps) => {
      await deleteClientApp(deps, clientOf(input), input.params.app_reference);
      return { ok: true as const };
    }),
  },
});
