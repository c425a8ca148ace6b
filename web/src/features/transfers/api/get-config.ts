import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';

/** `GET transfer_configs/{transfer_config_reference}`: one configuration (secrets only as set / not set). */
export const getConfig = endpointOf(transferEndpoints, 'client.transfer-configs.get');
