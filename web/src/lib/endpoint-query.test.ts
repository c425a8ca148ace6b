import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint.ts';
import { ApiError, ResponseShapeError } from './api-error.ts';
import { endpointQueryKey, endpointQueryOptions } from './endpoint-query.ts';
import { shouldRetry } from './query-client.ts';

const listDevices = defineEndpoint({
  id: 'admin.devices.list',
  surface: 'admin',
  method: 'GET',
  path: '/groups/{group_name}/devices',
  auth: 'user',
  action: 'devices:List',
  group: 'devices',
  summary: 'Devices',
  params: z.object({ group_name: z.string() }),
  query: z.object({ last_key: z.string().optional() }),
  response: z.object({ count: z.number() }),
});

describe('endpointQueryKey', () => {
  it('holds every argument the call sends, so tenants and pages never share a cache entry', () => {
    const key = endpointQueryKey(listDevices, { client: 'acme', params: { group_name: 'g' }, query: { last_key: 'k' } });
    expect(key).toEqual(['api', 'admin.devices.list', 'acme', { group_name: 'g' }, { last_key: 'k' }]);
    const other = endpointQueryKey(listDevices, { client: 'globex', params: { group_name: 'g' }, query: { last_key: 'k' } });
    expect(other).not.toEqual(key);
  });
});

describe('endpointQueryOptions', () => {
  it('fetches through the API client and caches under the key', async () => {
    const fetch = vi.fn(async () => new Response('{"count":3}', { status: 200 })) as unknown as typeof globalThis.fetch;
    const queryClient = new QueryClient();
    const options = endpointQueryOptions(
      listDevices,
      { client: 'acme', params: { group_name: 'g' } },
      { fetch, bases: { admin: '/api/v1', client: '/api/v1', internal: '/internal/v1', device: '/device/v1' } },
    );
    await expect(queryClient.ensureQueryData(options)).resolves.toEqual({ count: 3 });
    expect(queryClient.getQueryData(options.queryKey)).toEqual({ count: 3 });
    expect(fetch).toHaveBeenCalledWith('/api/v1/acme/groups/g/devices', expect.anything());
  });
});

describe('shouldRetry', () => {
  it('retries server and network failures twice, never client errors or contract mismatches', () => {
    expect(shouldRetry(0, new ApiError(503, 503, ['x'], 'e'))).toBe(true);
    expect(shouldRetry(0, new ApiError(429, 429, ['x'], 'e'))).toBe(true);
    expect(shouldRetry(2, new ApiError(503, 503, ['x'], 'e'))).toBe(false);
    expect(shouldRetry(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetry(0, new ApiError(404, 404, ['x'], 'e'))).toBe(false);
    expect(shouldRetry(0, new ResponseShapeError('x', 'e'))).toBe(false);
  });
});
