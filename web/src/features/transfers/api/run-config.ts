import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { listTransfers } from './list-transfers.ts';

/** `POST transfer_configs/{transfer_config_reference}/run`: record a Pending transfer and start it now. */
export const runConfig = endpointOf(transferEndpoints, 'client.transfer-configs.run');

/** The transfers list is refreshed after a run so the new transfer shows. */
export function useRunConfig() {
  return useEndpointMutation(runConfig, { invalidates: [listTransfers] });
}
