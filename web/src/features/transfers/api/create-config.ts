import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getConfig } from './get-config.ts';
import { listConfigs } from './list-configs.ts';

/** `POST transfer_configs/{transfer_config_reference}`: create (409 when the reference is taken). */
export const createConfig = endpointOf(transferEndpoints, 'client.transfer-configs.create');

export function useCreateConfig() {
  return useEndpointMutation(createConfig, { invalidates: [listConfigs, getConfig], formErrors: true });
}
