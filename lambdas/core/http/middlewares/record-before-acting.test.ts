import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, type Endpoint } from '#shared/contract/endpoint.ts';
import { createFixedClock } from '../../adapters/local/clocks.ts';
import type { Principal } from '../../auth/principal.ts';
import type { TableStore } from '../../ports/table-store.ts';
import { eventFor, testDependencies } from '../../testing/http-events.ts';
import { createMemoryTable } from '../../testing/memory-table.ts';
import { pipelineRequest, runHook } from '../../testing/pipeline-requests.ts';
import { ActivityNotRecordedError } from '../activity.ts';
import { recordBeforeActing } from './record-before-acting.ts';
import { apiRecorders } from '../../../api-recorders.ts';

const base = { group: 'devices', summary: 's', surface: 'admin', auth: 'user', response: z.object({}) } as const;
const readThing = defineEndpoint({ ...base, id: 'admin.things.read', method: 'GET', path: '/things', action: 'things:Read' });
const updateThing = defineEndpoint({ ...base, id: 'admin.things.update', method: 'PUT', path: '/things', action: 'things:Update' });
const upload = defineEndpoint({ ...base, id: 'device.logs.upload', surface: 'device', auth: 'device', method: 'POST', path: '/logs', action: 'logs:Upload' });
const user: Principal = { kind: 'user', subject: 'user-1', email: undefined, client: 'acme', groups: ['admin'], tokenIssuer: 'https://issuer' };
const device: Principal = { kind: 'device', client: 'acme', deviceReference: 'dev-1' };

function setup(table: TableStore = createMemoryTable()) {
  const dependencies = testDependencies({ tokens: { verify: () => Promise.reject(new Error('no tokens here')) }, table, clock: createFixedClock('2025-06-01T12:00:00.000Z') });
  const recordOn = async (endpoint: Endpoint, principal: Principal | undefined) => {
    const event = eventFor(endpoint, { pathParameters: { client: 'acme' } });
    const state = { dependencies, endpoint, principal, startedAtTime: new Date('2025-06-01T11:59:59.000Z'), input: { params: {}, query: {}, body: undefined, client: 'acme' } };
    const request = pipelineRequest(event, { state });
    const error = await runHook(recordBeforeActing(apiRecorders.activityLog), 'before', request).catch((thrown: unknown) => thrown);
    return { state: request.internal.pipeline, error };
  };
  return { recordOn };
}

describe('recordBeforeActing', () => {
  it('writes the open record of a change before it acts, and keeps where it is', async () => {
    const table = createMemoryTable();
    const { recordOn } = setup(table);
    const { state, error } = await recordOn(updateThing, user);
    expect(error).toBeUndefined();
    const records = [...table.items.values()];
    expect(records).toEqual([
      expect.objectContaining({
        entity: 'UserActivity',
        chain_state: 'open',
        client: 'acme',
        user_id: 'user-1',
        action: 'things:Update',
        is_allowed: true,
        activity_time: '2025-06-01T11:59:59.000Z',
        request_id: 'req-1',
      }),
    ]);
    // No outcome yet: that is for the record's closing.
    expect(records[0]).not.toHaveProperty('status_code');
    expect(state?.openedActivity).toMatchObject({ trail: 'user', client: 'acme', key: { pk: records[0]?.pk, sk: records[0]?.sk } });
  });

  it("opens a device's change as its device activity", async () => {
    const table = createMemoryTable();
    const { recordOn } = setup(table);
    const { state } = await recordOn(upload, device);
    expect([...table.items.values()]).toEqual([expect.objectContaining({ entity: 'DeviceActivity', chain_state: 'open', device_reference: 'dev-1', action: 'logs:Upload' })]);
    expect(state?.openedActivity?.trail).toBe('device');
  });

  it('writes nothing for a read (recorded after it read) or a public call', async () => {
    const table = createMemoryTable();
    const { recordOn } = setup(table);
    await recordOn(readThing, user);
    await recordOn(updateThing, undefined);
    expect(table.items.size).toBe(0);
  });

  it('fails the change (500) before it acts when the record cannot be written, and marks the record as failed', async () => {
    const table = createMemoryTable();
    const { recordOn } = setup({ ...table, put: () => Promise.reject(new Error('audit store down')) });
    const { state, error } = await recordOn(updateThing, user);
    expect(error).toBeInstanceOf(ActivityNotRecordedError);
    expect((error as ActivityNotRecordedError).status).toBe(500);
    expect(state?.activityFailed).toBe(true);
    expect(state?.openedActivity).toBeUndefined();
  });
});
