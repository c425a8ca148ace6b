import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { clientAppToItem, readClientApp, toClientApp, type ClientAppItem } from './client-app.ts';

const app: ClientAppItem = {
  client: 'acme',
  app_reference: 'archiver',
  oidc_config: { issuer: 'https://id.example.com', audience: 'verity', jwks_uri: 'https://id.example.com/jwks' },
  group: 'north',
  roles: ['reviewer'],
  cidr_ranges: [],
  updated_by: 'u-1',
  updated_at: '2026-01-02T03:04:05.000Z',
};

describe('client app item', () => {
  it('round-trips with its keys', () => {
    const item = clientAppToItem('acme', app);
    expect(item).toMatchObject(keys.clientApp.item('acme', 'archiver'));
    expect(toClientApp(readClientApp(item))).toEqual(app);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...clientAppToItem('acme', app), oidc_config: { issuer: 'https://id.example.com' } };
    expect(() => readClientApp(item)).toThrow(InternalError);
    expect(() => readClientApp(item)).toThrow(/ClientApp item .* oidc_config\.audience: /);
  });
});
