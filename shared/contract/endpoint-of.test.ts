import { describe, expect, it } from 'vitest';
import { endpointOf, MISSING_ENDPOINT_MESSAGE } from './endpoint-of.ts';
import { accessEndpoints } from './endpoints/access.ts';
import { deviceEndpoints } from './endpoints/devices.ts';

describe('endpointOf', () => {
  it('picks the endpoint with that id from its group, wherever it sits in the list', () => {
    const history = endpointOf(deviceEndpoints, 'admin.devices.history');
    expect(history.id).toBe('admin.devices.history');
    expect(history).toBe(deviceEndpoints.find((endpoint) => endpoint.id === 'admin.devices.history'));
  });

  it('keeps the exact endpoint type: its params are known to the compiler', () => {
    const getRole = endpointOf(accessEndpoints, 'admin.roles.get');
    const params: { role_reference: string } = getRole.params.parse({ role_reference: 'auditor' });
    expect(params).toEqual({ role_reference: 'auditor' });
  });

  it('refuses an id the group lacks: at compile time, and at run time if a group and an id drift apart', () => {
    // @ts-expect-error 'admin.roles.lits' is no id of the access group: ids are checked by the compiler.
    expect(() => endpointOf(accessEndpoints, 'admin.roles.lits')).toThrow(`${MISSING_ENDPOINT_MESSAGE}: admin.roles.lits`);
    // @ts-expect-error 'admin.devices.list' belongs to another group.
    expect(() => endpointOf(accessEndpoints, 'admin.devices.list')).toThrow(MISSING_ENDPOINT_MESSAGE);
  });
});
