import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getConfig } from './get-config.ts';
import { listConfigs } from './list-configs.ts';

/** `PUT transfer_configs/{transfer_config_reference}`: replace; secrets left out are kept. */
export const updateConfig = endpointOf(transferEndpoints, 'client.transfer-configs.update');

export function useUpdateConfig() {
  return useEndpointMutation(updateConfig, { invalidates: [listConfigs, getConfig], formErrors: true });
}
