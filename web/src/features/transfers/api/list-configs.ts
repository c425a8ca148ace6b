import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';

/** `GET transfer_configs`: the tenant's transfer configurations. */
export const listConfigs = endpointOf(transferEndpoints, 'client.transfer-configs.list');

export function useConfigs() {
  return useCursorList(listConfigs, { query: {} });
}
