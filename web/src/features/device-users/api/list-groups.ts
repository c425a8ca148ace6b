import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** The group picker of the form and the group filter. */
export const listGroupsForPicker = endpointOf(accessEndpoints, 'admin.groups.list');
