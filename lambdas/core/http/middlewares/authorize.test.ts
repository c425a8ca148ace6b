import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, type Endpoint } from '#shared/contract/endpoint.ts';
import { createFixedClock } from '../../adapters/local/clocks.ts';
import { CidrRefusedError } from '../../auth/access/resolve-access.ts';
import type { Principal, UserPrincipal } from '../../auth/principal.ts';
import { ForbiddenError } from '../../errors.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../../store/keys.ts';
import { eventFor, testDependencies } from '../../testing/http-events.ts';
import { createMemoryTable } from '../../testing/memory-table.ts';
import { pipelineRequest, runHook } from '../../testing/pipeline-requests.ts';
import { authorizeCall } from './authorize.ts';
import { apiRecorders } from '../../../api-recorders.ts';

const base = { group: 'devices', summary: 's', surface: 'admin', auth: 'user', response: z.object({}) } as const;
const readThing = defineEndpoint({ ...base, id: 'admin.things.read', method: 'GET', path: '/things', action: 'things:Read' });
const updateThing = defineEndpoint({ ...base, id: 'admin.things.update', method: 'PUT', path: '/things', action: 'things:Update' });

const role = (reference: string, patterns: string[], cidrRanges: string[] = []): TableItem => ({
  ...keys.role.item('acme', reference),
  role_reference: reference,
  permissions: patterns.map((actions_matching) => ({ actions_matching })),
  payload_types: [],
  cidr_ranges: cidrRanges,
  alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
});
const user = (group: string): UserPrincipal => ({ kind: 'user', subject: 'user-1', email: 'ada@example.com', client: 'acme', groups: [group], tokenIssuer: 'https://issuer' });

function setup() {
  const table = createMemoryTable([role('reviewer', ['*:Read']), role('office', ['*'], ['10.0.0.0/8'])]);
  const dependencies = testDependencies({ tokens: { verify: () => Promise.reject(new Error('no tokens here')) }, table, clock: createFixedClock() });
  const authorizeOn = async (endpoint: Endpoint, principal: Principal | undefined) => {
    const event = eventFor(endpoint, { pathParameters: { client: 'acme' } });
    const request = pipelineRequest(event, { state: { dependencies, endpoint, principal, input: { params: {}, query: {}, body: undefined, client: 'acme' } } });
    const error = await runHook(authorizeCall(apiRecorders.securityAlerts), 'before', request).catch((thrown: unknown) => thrown);
    return { state: request.internal.pipeline, error };
  };
  const alerts = () => [...table.items.values()].filter((item) => item.entity === 'Alert');
  return { authorizeOn, alerts };
}

describe('authorizeCall', () => {
  it("allows what the caller's roles allow, and keeps the access for the implementation", async () => {
    const { authorizeOn } = setup();
    const { state, error } = await authorizeOn(readThing, user('reviewer'));
    expect(error).toBeUndefined();
    expect(state?.access?.roleReferences).toEqual(['reviewer']);
  });

  it('refuses with 403 saying why, keeping the access for the activity record, and raises no alert', async () => {
    const { authorizeOn, alerts } = setup();
    const { state, error } = await authorizeOn(updateThing, user('reviewer'));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as Error).message).toBe('Access denied: your roles do not allow things:Update');
    expect(state?.access?.roleReferences).toEqual(['reviewer']);
    expect(alerts()).toEqual([]);
  });

  it("refuses a call from outside the role's CIDR ranges and raises a security alert", async () => {
    const { authorizeOn, alerts } = setup();
    const { error } = await authorizeOn(updateThing, user('office'));
    expect(error).toBeInstanceOf(CidrRefusedError);
    expect((error as Error).message).toBe('Access denied: 127.0.0.1 is outside the CIDR ranges of role "office"');
    expect(alerts()).toEqual([expect.objectContaining({ client: 'acme', alert_scope: 'sec', alert_subject: 'Call refused by CIDR ranges' })]);
    expect(alerts()[0]?.alert_message).toContain('ada@example.com from 127.0.0.1 was refused things:Update');
  });

  it('leaves devices and public calls alone (they have no roles)', async () => {
    const { authorizeOn } = setup();
    const device = await authorizeOn(updateThing, { kind: 'device', client: 'acme', deviceReference: 'dev-1' });
    expect(device.error).toBeUndefined();
    expect(device.state?.access).toBeUndefined();
    const nobody = await authorizeOn(updateThing, undefined);
    expect(nobody.error).toBeUndefined();
    expect(nobody.state?.access).toBeUndefined();
  });
});
