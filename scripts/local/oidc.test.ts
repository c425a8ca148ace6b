import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKeys, portalClientId } from './oidc.ts';

const dir = mkdtempSync(join(tmpdir(), 'verity-oidc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('local OIDC provider keys', () => {
  it('creates one RS256 signing key and reuses it after a restart, so issued tokens keep verifying', async () => {
    const first = await loadOrCreateSigningKeys(dir);
    expect(first.keys).toHaveLength(1);
    expect(first.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(first.keys[0]?.d).toBeDefined();
    const second = await loadOrCreateSigningKeys(dir);
    expect(second).toEqual(first);
  });

  it('keeps the private key file private to its owner', () => {
    expect(statSync(join(dir, 'jwks.json')).mode & 0o077).toBe(0);
  });

  it('names portal clients per tenant', () => {
    expect(portalClientId('demo')).toBe('verity-demo-portal');
    expect(portalClientId('admin')).toBe('verity-admin-portal');
  });
});
