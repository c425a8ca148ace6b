import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getSupervisionItem } from './get-item.ts';
import { listSupervisionItems } from './list-items.ts';

/** `PUT supervision/items`: one action on 1 to 100 items, answered per reference (each item's history marks it bulk). */
export const bulkUpdateSupervisionItems = endpointOf(supervisionEndpoints, 'admin.supervision.items.bulk');

export function useBulkUpdateSupervisionItems() {
  return useEndpointMutation(bulkUpdateSupervisionItems, { invalidates: [listSupervisionItems, getSupervisionItem], formErrors: true });
}
