import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, type Endpoint } from '#shared/contract/endpoint.ts';
import { createFixedClock } from '../../adapters/local/clocks.ts';
import type { Principal } from '../../auth/principal.ts';
import { ForbiddenError, UnauthorizedError } from '../../errors.ts';
import type { TableStore } from '../../ports/table-store.ts';
import { bodyOf, eventFor, testDependencies } from '../../testing/http-events.ts';
import { createMemoryTable } from '../../testing/memory-table.ts';
import { pipelineRequest, runHook } from '../../testing/pipeline-requests.ts';
import { ActivityNotRecordedError } from '../activity.ts';
import type { PipelineState } from './pipeline-state.ts';
import { recordActivity } from './record-activity.ts';
import { recordBeforeActing } from './record-before-acting.ts';
import { apiRecorders } from '../../../api-recorders.ts';

const base = { group: 'devices', summary: 's', surface: 'admin', auth: 'user', response: z.object({}) } as const;
const readThing = defineEndpoint({ ...base, id: 'admin.things.read', method: 'GET', path: '/things/{id}', action: 'things:Read', params: z.object({ id: z.string() }) });
const updateThing = defineEndpoint({ ...base, id: 'admin.things.update', method: 'PUT', path: '/things/{id}', action: 'things:Update', params: z.object({ id: z.string() }) });
const upload = defineEndpoint({ ...base, id: 'device.logs.upload', surface: 'device', auth: 'device', method: 'POST', path: '/logs', action: 'logs:Upload' });
const user: Principal = { kind: 'user', subject: 'user-1', email: undefined, client: 'acme', groups: ['admin'], tokenIssuer: 'https://issuer' };

const failingPuts = (table: TableStore): TableStore => ({ ...table, put: () => Promise.reject(new Error('audit store down')) });

function setup(table: TableStore = createMemoryTable()) {
  const dependencies = testDependencies({ tokens: { verify: () => Promise.reject(new Error('no tokens here')) }, table, clock: createFixedClock('2025-06-01T12:00:00.000Z') });
  const requestFor = (endpoint: Endpoint, state: Omit<PipelineState, 'startedAt' | 'dependencies' | 'endpoint'>, answer: { response?: unknown; error?: Error }) =>
    pipelineRequest(eventFor(endpoint, { pathParameters: { client: 'acme', id: 'thing-1' } }), {
      state: { dependencies, endpoint, startedAtTime: new Date('2025-06-01T11:59:58.000Z'), input: { params: { id: 'thing-1' }, query: {}, body: undefined, client: 'acme' }, ...state },
      ...answer,
    });
  return { requestFor };
}
const ok = { statusCode: 200, headers: {}, body: '{}' };
const records = (table: { items: Map<string, Record<string, unknown>> }) => [...table.items.values()];

describe('recordActivity', () => {
  it("records a read after it read, with the answer's status and the call's times, before the answer leaves", async () => {
    const table = createMemoryTable();
    const request = setup(table).requestFor(readThing, { principal: user }, { response: ok });
    await runHook(recordActivity(apiRecorders.activityLog), 'after', request);
    expect(records(table)).toEqual([
      expect.objectContaining({
        entity: 'UserActivity',
        chain_state: 'pending',
        action: 'things:Read',
        is_allowed: true,
        status_code: 200,
        activity_time: '2025-06-01T11:59:58.000Z',
        activity_end_time: '2025-06-01T12:00:00.000Z',
        duration: 2,
        parameters: { client: 'acme', id: 'thing-1' },
      }),
    ]);
  });

  it('closes the record a change opened before it acted, with its outcome', async () => {
    const table = createMemoryTable();
    const { requestFor } = setup(table);
    const request = requestFor(updateThing, { principal: user }, {});
    await runHook(recordBeforeActing(apiRecorders.activityLog), 'before', request);
    expect(records(table)).toEqual([expect.objectContaining({ chain_state: 'open' })]);
    request.response = { statusCode: 200, headers: {}, body: '{}' };
    await runHook(recordActivity(apiRecorders.activityLog), 'after', request);
    expect(records(table)).toEqual([expect.objectContaining({ chain_state: 'pending', action: 'things:Update', status_code: 200, duration: 2 })]);
  });

  it('records a refusal with why it was refused', async () => {
    const table = createMemoryTable();
    const refusal = new ForbiddenError('Access denied: your roles do not allow things:Update');
    const request = setup(table).requestFor(updateThing, { principal: user }, { response: { statusCode: 403 }, error: refusal });
    await runHook(recordActivity(apiRecorders.activityLog), 'onError', request);
    expect(records(table)).toEqual([expect.objectContaining({ is_allowed: false, status_code: 403, denial_reason: 'Access denied: your roles do not allow things:Update' })]);
    expect(request.response).toEqual({ statusCode: 403 });
  });

  it('withholds the answer when the record cannot be written: the read fails instead of answering unrecorded', async () => {
    const request = setup(failingPuts(createMemoryTable())).requestFor(readThing, { principal: user }, { response: ok });
    await expect(runHook(recordActivity(apiRecorders.activityLog), 'after', request)).rejects.toBeInstanceOf(ActivityNotRecordedError);
    expect(request.internal.pipeline?.activityFailed).toBe(true);
    // middy then runs the error steps: this one does not try again, and the answer is the 500.
    request.error = new ActivityNotRecordedError(new Error('audit store down'));
    request.response = { statusCode: 500, headers: {}, body: '{"error_code":500}' };
    await runHook(recordActivity(apiRecorders.activityLog), 'onError', request);
    expect(request.response).toEqual({ statusCode: 500, headers: {}, body: '{"error_code":500}' });
  });

  it('turns a refusal whose record cannot be written into a 500', async () => {
    const refusal = new ForbiddenError('Access denied: your roles do not allow things:Update');
    const request = setup(failingPuts(createMemoryTable())).requestFor(updateThing, { principal: user }, { response: { statusCode: 403 }, error: refusal });
    await runHook(recordActivity(apiRecorders.activityLog), 'onError', request);
    expect(request.error).toBeInstanceOf(ActivityNotRecordedError);
    const answer = request.response as { statusCode: number; headers: Record<string, string>; body: string };
    expect(answer.statusCode).toBe(500);
    expect(answer.headers['x-request-id']).toBe('req-1');
    expect(bodyOf(answer)).toEqual({ error_code: 500, message: 'Internal Server Error' });
  });

  it("records a refused device token as the device's activity", async () => {
    const table = createMemoryTable();
    const refusal = new UnauthorizedError('Token expired');
    const request = setup(table).requestFor(upload, { refusedDevice: { client: 'acme', deviceReference: 'dev-1' } }, { response: { statusCode: 401 }, error: refusal });
    await runHook(recordActivity(apiRecorders.activityLog), 'onError', request);
    expect(records(table)).toEqual([
      expect.objectContaining({ entity: 'DeviceActivity', client: 'acme', device_reference: 'dev-1', action: 'logs:Upload', is_allowed: false, status_code: 401, denial_reason: 'Token expired' }),
    ]);
  });

  it('records nothing for a caller it could not name (no token, or a forged one)', async () => {
    const table = createMemoryTable();
    const request = setup(table).requestFor(readThing, {}, { response: { statusCode: 401 }, error: new UnauthorizedError('Authorization required') });
    await runHook(recordActivity(apiRecorders.activityLog), 'onError', request);
    expect(table.items.size).toBe(0);
  });
});
