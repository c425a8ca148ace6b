import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { useCursorList, useEndpointMutation } from '../../lib/api-hooks.ts';

/** `GET transfer_configs`: the tenant's transfer configurations. */
export const listConfigs = endpointOf(transferEndpoints, 'client.transfer-configs.list');
/** `GET transfer_configs/{transfer_config_reference}`: one configuration (secrets only as set / not set). */
export const getConfig = endpointOf(transferEndpoints, 'client.transfer-configs.get');
/** `POST transfer_configs/{transfer_config_reference}`: create (409 when the reference is taken). */
export const createConfig = endpointOf(transferEndpoints, 'client.transfer-configs.create');
/** `PUT transfer_configs/{transfer_config_reference}`: replace; secrets left out are kept. */
export const updateConfig = endpointOf(transferEndpoints, 'client.transfer-configs.update');
/** `DELETE transfer_configs/{transfer_config_reference}`: remove it and its schedule; its transfers stay. */
export const deleteConfig = endpointOf(transferEndpoints, 'client.transfer-configs.delete');
/** `POST transfer_configs/{transfer_config_reference}/run`: record a Pending transfer and start it now. */
export const runConfig = endpointOf(transferEndpoints, 'client.transfer-configs.run');
/** `GET transfers`: refreshed after a run so the new transfer shows. */
const listTransfers = endpointOf(transferEndpoints, 'client.transfers.list');

export function useConfigs() {
  return useCursorList(listConfigs, { query: {} });
}

export function useCreateConfig() {
  return useEndpointMutation(createConfig, { invalidates: [listConfigs, getConfig], formErrors: true });
}

export function useUpdateConfig() {
  return useEndpointMutation(updateConfig, { invalidates: [listConfigs, getConfig], formErrors: true });
}

export function useDeleteConfig() {
  return useEndpointMutation(deleteConfig, { invalidates: [listConfigs, getConfig] });
}

export function useRunConfig() {
  return useEndpointMutation(runConfig, { invalidates: [listTransfers] });
}
