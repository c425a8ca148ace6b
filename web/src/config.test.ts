import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.ts';

describe('parseConfig', () => {
  it('defaults to same-origin bases, the client base following the admin base', () => {
    expect(parseConfig({})).toEqual({
      apiBase: '/api/v1',
      clientApiBase: '/api/v1',
      internalBase: '/internal/v1',
      deviceBase: '/device/v1',
    });
  });

  it('reads Vite env, and window.__VERITY_CONFIG__ wins key by key', () => {
    const config = parseConfig({
      env: { VITE_API_BASE: 'https://api.example.com/api/v1/', VITE_INTERNAL_BASE: '/console/v1' },
      runtime: { clientApiBase: 'https://tenant.example.com/api/v1', internalBase: ' /internal/v2// ' },
    });
    expect(config).toEqual({
      apiBase: 'https://api.example.com/api/v1',
      clientApiBase: 'https://tenant.example.com/api/v1',
      internalBase: '/internal/v2',
      deviceBase: '/device/v1',
    });
  });

  it('allows http only on loopback (the local stack)', () => {
    expect(parseConfig({ runtime: { apiBase: 'http://localhost:3000/api/v1' } }).apiBase).toBe(
      'http://localhost:3000/api/v1',
    );
    expect(() => parseConfig({ runtime: { apiBase: 'http://api.example.com/api/v1' } })).toThrow(ConfigError);
  });

  it.each([
    ['protocol-relative', '//evil.example.com/api'],
    ['script URL', 'javascript:alert(1)'],
    ['relative path', 'api/v1'],
    ['empty', '   '],
    ['credentials', 'https://user:pass@api.example.com'],
    ['query', '/api/v1?x=1'],
    ['backslash', '/\\evil.example.com'],
    ['not a string', 42],
  ])('refuses a %s base, naming the key', (_label, value) => {
    let caught: unknown;
    try {
      parseConfig({ runtime: { apiBase: value } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).lines[0]).toMatch(/^apiBase: (must be a path starting with "\/" or an https:\/\/ URL|must not be empty|must be a string)$/);
  });

  it('takes an optional https map tile template with its attribution, and refuses any other URL', () => {
    const tiles = { mapTileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png', mapAttribution: '© Example' };
    expect(parseConfig({ runtime: tiles })).toMatchObject(tiles);
    expect(parseConfig({}).mapTileUrl).toBeUndefined();
    expect(() => parseConfig({ runtime: { mapTileUrl: 'http://tiles.example.com/{z}/{x}/{y}.png' } })).toThrow(/mapTileUrl/);
    expect(() => parseConfig({ runtime: { mapTileUrl: 'https://tiles.example.com/tile.png' } })).toThrow(/mapTileUrl/);
  });

  it('refuses unknown keys, so a typo in config.js is caught rather than ignored', () => {
    expect(() => parseConfig({ runtime: { apiBse: '/api/v1' } })).toThrow('apiBse: unknown setting');
  });

  it('refuses a runtime config that is not an object', () => {
    expect(() => parseConfig({ runtime: 'apiBase=/x' })).toThrow('window.__VERITY_CONFIG__: must be an object');
    expect(() => parseConfig({ runtime: ['/x'] })).toThrow(ConfigError);
  });

  it('treats undefined runtime values as absent, not as errors', () => {
    expect(parseConfig({ runtime: { apiBase: undefined } }).apiBase).toBe('/api/v1');
  });
});
