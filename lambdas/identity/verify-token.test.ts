import fc from 'fast-check';
import { base64url, UnsecuredJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOidcTokenVerifier, type TokenVerifier } from '#core/auth/jwt-verifier.ts';
import { ServiceUnavailableError } from '#core/errors.ts';
import { createTestIssuer, type TestIssuer } from '#core/testing/test-tokens.ts';
import { verifyIdToken } from './verify-token.ts';

let issuer: TestIssuer;
let verifier: TokenVerifier;

beforeAll(async () => {
  issuer = await createTestIssuer();
  verifier = createOidcTokenVerifier({ issuer: issuer.issuer, audiences: [issuer.audience], keySource: issuer.keySource });
});

const segment = (value: unknown) => base64url.encode(JSON.stringify(value));

describe('verifyIdToken', () => {
  it('says valid, with client, user and expiry, for a fresh token', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const result = await verifyIdToken(verifier, await issuer.sign({ 'custom:client': 'demo', sub: 'u-7' }, { expiresIn: exp }));
    expect(result).toEqual({ valid: true, client: 'demo', user_reference: 'u-7', expires_at: new Date(exp * 1000).toISOString() });
  });

  it('says invalid for expired, foreign, unsigned and claim-less tokens', async () => {
    const other = await createTestIssuer(issuer.issuer, issuer.audience);
    const tokens = [
      await issuer.sign({}, { expiresIn: Math.floor(Date.now() / 1000) - 60 }),
      await other.sign(),
      new UnsecuredJWT({ 'custom:client': 'demo' }).setIssuer(issuer.issuer).setAudience(issuer.audience).setSubject('u').setExpirationTime('1h').encode(),
      await issuer.sign({ 'custom:client': '' }),
    ];
    for (const token of tokens) expect(await verifyIdToken(verifier, token)).toEqual({ valid: false });
  });

  it('never throws on junk: any string, or any JWT-shaped string, is simply invalid', async () => {
    const json = fc.jsonValue();
    const jwtShaped = fc
      .tuple(fc.oneof(json, fc.record({ alg: fc.constantFrom('RS256', 'none', 'HS256'), kid: fc.oneof(fc.string(), json) })), json, fc.string())
      .map(([header, payload, signature]) => `${segment(header)}.${segment(payload)}.${signature}`);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 300 }), jwtShaped), async (junk) => {
        expect(await verifyIdToken(verifier, junk)).toEqual({ valid: false });
      }),
      { numRuns: 200 },
    );
  });

  it('does not turn an unreachable provider into "invalid"', async () => {
    const down: TokenVerifier = { verify: () => Promise.reject(new ServiceUnavailableError('JWKS unavailable')) };
    await expect(verifyIdToken(down, 'x.y.z')).rejects.toMatchObject({ status: 503 });
  });
});
