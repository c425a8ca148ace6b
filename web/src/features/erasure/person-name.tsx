import type { ErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import { useCan } from '../../lib/use-can.ts';
import { useDeviceUser } from './api/erasure-api.ts';
import { deviceUserName, personWords } from './erasure-model.ts';

/**
 * The person a request is about, by name: the name kept with the request, else (a request recorded before names were
 * kept) their device user record's, else their reference. A destroyed record names nobody: the reference stays.
 */
export function usePersonWords(request: Pick<ErasureRequest, 'device_user_reference' | 'device_user_name'>): string {
  const mayRead = useCan('deviceUsers:Read');
  const lookup = request.device_user_name === undefined && mayRead.allowed;
  const user = useDeviceUser(request.device_user_reference, lookup);
  const name = request.device_user_name ?? (user.data === undefined ? undefined : deviceUserName(user.data));
  return personWords(request.device_user_reference, name);
}

export function PersonName({ request }: { request: Pick<ErasureRequest, 'device_user_reference' | 'device_user_name'> }) {
  return <>{usePersonWords(request)}</>;
}
