import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** The calls of the access screens: groups with their tags, tag definitions and roles. */
export const listGroups = endpointOf(accessEndpoints, 'admin.groups.list');
export const getGroup = endpointOf(accessEndpoints, 'admin.groups.get');
export const putGroup = endpointOf(accessEndpoints, 'admin.groups.put');
export const deleteGroup = endpointOf(accessEndpoints, 'admin.groups.delete');
export const listTags = endpointOf(accessEndpoints, 'admin.tags.list');
export const getTag = endpointOf(accessEndpoints, 'admin.tags.get');
export const putTag = endpointOf(accessEndpoints, 'admin.tags.put');
export const deleteTag = endpointOf(accessEndpoints, 'admin.tags.delete');
export const listRoles = endpointOf(accessEndpoints, 'admin.roles.list');
export const getRole = endpointOf(accessEndpoints, 'admin.roles.get');
export const putRole = endpointOf(accessEndpoints, 'admin.roles.put');
export const deleteRole = endpointOf(accessEndpoints, 'admin.roles.delete');
