import { relatedEntity } from '../alerts/public.ts';
import { raiseAlert } from '../alerts/public.ts';
import { deviceOf } from '#core/auth/actor.ts';
import { kekForDevice } from '../device-crypto/public.ts';
import { implement, type Routes } from '#core/http/route.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { deviceApiEndpoints } from '#shared/contract/endpoints/device-api.ts';
import { authenticateDevice } from './authenticate-device.ts';

const authenticate = endpointOf(deviceApiEndpoints, 'device.authenticate');
const getKeys = endpointOf(deviceApiEndpoints, 'device.keys');
const raise = endpointOf(deviceApiEndpoints, 'device.alerts.raise');

export const deviceApiRoutes: Routes = {
  [authenticate.id]: implement(authenticate, async (input, deps) => authenticateDevice(deps, input.body, input.activity)),
  [getKeys.id]: implement(getKeys, async (input, deps) => kekForDevice(deps, deviceOf(input.principal).client)),
  [raise.id]: implement(raise, async (input, deps) => {
    const device = deviceOf(input.principal);
    // Transient: each device report is its own alert (a device cannot fold its reports into another's).
    const { alert } = await raiseAlert(deps, device.client, {
      scope: 'ops',
      type: 'DeviceAlert',
      subject: input.body.subject,
      key: device.deviceReference,
      keyType: 'Transient',
      message: input.body.message,
      severity: input.body.severity,
      relatedEntities: [relatedEntity(device.client, 'Device', device.deviceReference)],
      apiAction: raise.action,
    });
    return { alert_reference: alert.alert_reference };
  }),
};
