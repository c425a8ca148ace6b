import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** The calls of the access screens: groups with their tags, tag definitions and roles. */
export const listGroups = endpointOf(accessEndpoints, 'admin.groups.list');
