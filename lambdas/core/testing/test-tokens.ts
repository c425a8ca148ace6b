import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTPayload, type JWTVerifyGetKey } from 'jose';

/** Test helper: an RS256 key pair, its JWKS and a signer for id tokens. Not used by production code. */
export interface TestIssuer {
  issuer: string;
  audience: string;
  keySource: JWTVerifyGetKey;
  jwks: { keys: Array<Record<string, unknown>> };
  /** A signed id token; claims override the defaults (sub, custom:client, groups, iat, exp in one hour). */
  sign(claims?: JWTPayload, options?: { expiresIn?: string | number; kid?: string }): Promise<string>;
}

export async function createTestIssuer(issuer = 'http://127.0.0.1:9/oidc', audience = 'portal-app'): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const jwks = { keys: [jwk] };
  return {
    issuer,
    audience,
    jwks,
    keySource: createLocalJWKSet(jwks),
    sign: (claims = {}, options = {}) =>
      new SignJWT({ 'custom:client': 'acme', 'cognito:groups': ['Admins'], email: 'ada@example.com', ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'test-key' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(typeof claims.sub === 'string' ? claims.sub : 'user-1')
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '1h')
        .sign(privateKey),
  };
}
