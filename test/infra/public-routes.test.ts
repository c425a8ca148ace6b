import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { pathPatternOf, publicEndpointsOf } from '../../lib/config/public-routes.ts';

describe('public routes', () => {
  it('are the registry endpoints that need no token', () => {
    const ids = publicEndpointsOf(ENDPOINTS).map((endpoint) => endpoint.id);
    expect(ids).toEqual(expect.arrayContaining(['device.authenticate', 'internal.identity.verify', 'admin.identity.exchange']));
    expect(ids.length).toBe(ENDPOINTS.filter((endpoint) => endpoint.auth === 'public').length);
  });

  it('match their request paths and nothing longer or elsewhere', () => {
    const pattern = new RegExp(pathPatternOf('/api/v1/{client}/account/metadata'));
    expect(pattern.test('/api/v1/acme/account/metadata')).toBe(true);
    expect(pattern.test('/api/v1/acme/x/account/metadata')).toBe(false);
    expect(pattern.test('/api/v1/acme/account/metadata/more')).toBe(false);
    expect(pattern.test('/api/v1//account/metadata')).toBe(false);
    expect(pathPatternOf('/device/v1/a.b')).toBe('^/device/v1/a\\.b$');
  });
});
