import { PAGE_SIZE_MAX } from '#shared/constants/limits.ts';
import { completenessEndpoints } from '#shared/contract/endpoints/completeness.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET devices/{device_reference}/completeness`: one device's days, newest first. */
export const getDeviceCompleteness = endpointOf(completenessEndpoints, 'client.completeness.device');
/** `GET users/{device_user_reference}/completeness`: one device user's days, newest first. */
export const getDeviceUserCompleteness = endpointOf(completenessEndpoints, 'client.completeness.device-user');

/** Whose completeness a panel shows. */
export type CompletenessSubject = { device: string } | { deviceUser: string };

/**
 * One device's or device user's days over the period, in one page of up to 100 days (a panel's period is at most
 * the 30 days it shows; `last_key` on the answer says more days were left unread).
 */
export function useSubjectCompleteness(subject: CompletenessSubject, period: { from: string; to: string }, options: { enabled?: boolean } = {}) {
  const query = { ...period, limit: String(PAGE_SIZE_MAX) };
  const device = useEndpointQuery(
    getDeviceCompleteness,
    { params: { device_reference: 'device' in subject ? subject.device : '' }, query },
    { enabled: 'device' in subject && options.enabled !== false },
  );
  const user = useEndpointQuery(
    getDeviceUserCompleteness,
    { params: { device_user_reference: 'deviceUser' in subject ? subject.deviceUser : '' }, query },
    { enabled: 'deviceUser' in subject && options.enabled !== false },
  );
  return 'device' in subject ? device : user;
}
