import { describe, expect, it } from 'vitest';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
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
