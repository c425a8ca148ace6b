import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';

/**
 * `GET transfer_configs/{transfer_config_reference}`: one configuration (secrets only as set / not set). No screen reads
 * one configuration alone (the list's rows carry them), so it has no hook: it is bound for the writes that invalidate it.
 */
export const getConfig = endpointOf(transferEndpoints, 'client.transfer-configs.get');
