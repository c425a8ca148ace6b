import { describe, expect, it } from 'vitest';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
import type { AccessContext } from '../auth/access/access-context.ts';
import type { Dependencies } from '../dependencies.ts';
import { HttpError } from '../errors.ts';
import { implementForTenant, type RouteInput } from './route.ts';

const getRole = endpointOf(accessEndpoints, 'admin.roles.get');
const deps = {} as Dependencies;

function inputFor(client: string | undefined): RouteInput<typeof getRole> {
  return { params: { role_reference: 'auditor' }, query: {}, body: undefined, client, principal: undefined, access: undefined, requestId: 'req-1' };
}

describe('implementForTenant', () => {
  it("hands the implementation the path's client as a string, with the rest of the input as parsed", async () => {
    const route = implementForTenant(getRole, async (input) => {
      const client: string = input.client;
      return { role_reference: input.params.role_reference, client } as never;
    });
    await expect(route(inputFor('acme'), deps)).resolves.toEqual({ role_reference: 'auditor', client: 'acme' });
  });

  it('answers 500 when a tenant route is reached without its path client: our wiring, never the caller', async () => {
    let ran = false;
    const route = implementForTenant(getRole, async () => {
      ran = true;
      return {} as never;
    });
    const refusal = await route(inputFor(undefined), deps).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(HttpError);
    expect((refusal as HttpError).status).toBe(500);
    expect(ran).toBe(false);
  });

  it("gives the caller's group scope for the endpoint's own action, only when asked (public tenant routes have no access)", async () => {
    const listDevices = endpointOf(deviceEndpoints, 'admin.devices.list');
    const asked: string[] = [];
    const route = implementForTenant(listDevices, async (input) => {
      asked.push(input.groupScope().action);
      return {} as never;
    });
    const access = { roles: [] } as unknown as AccessContext;
    const input = { params: {}, query: { limit: 10, result_type: 'page' }, body: undefined, principal: undefined, requestId: 'req-1' } as const;
    await route({ ...input, client: 'acme', access } as RouteInput<typeof listDevices>, deps);
    expect(asked).toEqual(['devices:List']);

    const withoutAccess = await route({ ...input, client: 'acme', access: undefined } as RouteInput<typeof listDevices>, deps).catch((error: unknown) => error);
    expect((withoutAccess as HttpError).status).toBe(403);
    const untouched = implementForTenant(listDevices, async () => ({}) as never);
    await expect(untouched({ ...input, client: 'acme', access: undefined } as RouteInput<typeof listDevices>, deps)).resolves.toEqual({});
  });

  it('refuses, when the routes load, an endpoint whose path declares no client', () => {
    const staffList = endpointOf(identityEndpoints, 'internal.staff.list');
    expect(() => implementForTenant(staffList, async () => ({}) as never)).toThrow('internal.staff.list has no {client} in its path');
  });

  it('types the implementation against its endpoint', () => {
    implementForTenant(getRole, async (input) => {
      // @ts-expect-error the role endpoint's params have no device_reference: a route is typed by the endpoint it binds.
      void input.params.device_reference;
      return {} as never;
    });
  });
});
