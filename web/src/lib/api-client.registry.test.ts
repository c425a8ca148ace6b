import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pathParamNames } from '#shared/contract/endpoint.ts';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { buildUrl, type SurfaceBases } from './api-client.ts';

// Cross-check with the real registry: the client can address every declared endpoint and send every query.
const BASES: SurfaceBases = {
  admin: '/api/v1',
  client: '/api/v1',
  internal: '/internal/v1',
  device: '/device/v1',
};

describe('the API client against the registry', () => {
  it.each(ENDPOINTS.map((endpoint) => [endpoint.id, endpoint] as const))('builds the URL of %s', (_id, endpoint) => {
    const params = Object.fromEntries(pathParamNames(endpoint.path).map((name) => [name, `v/${name}`]));
    const url = buildUrl(endpoint, { client: 'acme', params }, BASES);
    // The tenant of the admin and client bases comes from `client`; every placeholder of the path (an internal
    // path may name `{client}` too) comes from `params`.
    const tenant = endpoint.surface === 'admin' || endpoint.surface === 'client' ? '/acme' : '';
    const expected =
      BASES[endpoint.surface] + tenant + endpoint.path.replace(/\{([a-z_]+)\}/g, (_match, name: string) => `v%2F${name}`);
    expect(url).toBe(expected);
  });

  it('finds no query parameter that would need a nested object on the wire', () => {
    let seen = 0;
    const nested = ENDPOINTS.flatMap((endpoint) => {
      const schema = z.toJSONSchema(endpoint.query, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, { type?: string }>;
      };
      seen += Object.keys(schema.properties ?? {}).length;
      return Object.entries(schema.properties ?? {})
        .filter(([, property]) => property.type === 'object')
        .map(([name]) => `${endpoint.id}: ${name}`);
    });
    expect(seen).toBeGreaterThan(0);
    expect(nested).toEqual([]);
  });
});
