import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getSupervisionItem } from './get-item.ts';
import { listSupervisionItems } from './list-items.ts';

/** `PUT supervision/items/{item_reference}`: claim, release, assign, escalate, close or reopen one item. */
export const updateSupervisionItem = endpointOf(supervisionEndpoints, 'admin.supervision.items.update');

/** The item's page and the queue show the new state once it is written. Refused input shows under the form's fields. */
export function useUpdateSupervisionItem() {
  return useEndpointMutation(updateSupervisionItem, { invalidates: [getSupervisionItem, listSupervisionItems], formErrors: true });
}
