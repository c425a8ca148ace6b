import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { integrityEndpoints } from '#shared/contract/endpoints/integrity.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET integrity`: the tenant's latest fixity runs (the spec's IntegrityCheck), newest first. */
export const listIntegrityChecks = endpointOf(integrityEndpoints, 'admin.integrity.list');

export function useIntegrityChecks(enabled: boolean) {
  return useEndpointQuery(listIntegrityChecks, {}, { enabled });
}
