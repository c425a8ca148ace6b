import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET users/{device_user_reference}`: the supervised person, whose e-mail tells whether the item is the caller's own. */
export const getSupervisedPerson = endpointOf(deviceEndpoints, 'admin.users.get');

export function useSupervisedPerson(deviceUserReference: string | undefined, enabled: boolean) {
  return useEndpointQuery(getSupervisedPerson, { params: { device_user_reference: deviceUserReference ?? '' } }, { enabled: enabled && deviceUserReference !== undefined });
}
