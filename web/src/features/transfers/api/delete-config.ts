import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getConfig } from './get-config.ts';
import { listConfigs } from './list-configs.ts';

/** `DELETE transfer_configs/{transfer_config_reference}`: remove it and its schedule; its transfers stay. */
export const deleteConfig = endpointOf(transferEndpoints, 'client.transfer-configs.delete');

export function useDeleteConfig() {
  return useEndpointMutation(deleteConfig, { invalidates: [listConfigs, getConfig] });
}
