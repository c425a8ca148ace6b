import { UnauthorizedError } from '../errors.ts';
import type { DevicePrincipal } from './principal.ts';

/**
 * Verifies a device token (issued by the device authentication exchange) and says which device holds it.
 * Throws UnauthorizedError with a short reason.
 */
export interface DeviceTokenVerifier {
  verify(token: string): Promise<DevicePrincipal>;
}

/** Until the device authentication exchange exists there is no valid device token: every one is refused. */
export const refuseDeviceTokens: DeviceTokenVerifier = {
  verify() {
    return Promise.reject(new UnauthorizedError('Device tokens are not issued yet'));
  },
};
