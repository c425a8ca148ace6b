import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../errors.ts';
import { createTestIssuer, type TestIssuer } from '../testing/test-tokens.ts';
import { clearKeySetCache, createOidcTokenVerifier, type TokenVerifier } from './jwt-verifier.ts';
import { clearDiscoveryCache } from './oidc-discovery.ts';

let issuer: TestIssuer;
let verifier: TokenVerifier;

beforeAll(async () => {
  issuer = await createTestIssuer();
  verifier = createOidcTokenVerifier({ issuer: issuer.issuer, audiences: ['other-app', issuer.audience], keySource: issuer.keySource });
});

/** The status and message a verification failure maps to. */
async function refusal(token: string, using: TokenVerifier = verifier): Promise<{ status: number; message: string }> {
  try {
    await using.verify(token);
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('token was accepted');
}

const now = () => Math.floor(Date.now() / 1000);

describe('createOidcTokenVerifier', () => {
  it('accepts a valid id token and builds the principal', async () => {
    const principal = await verifier.verify(await issuer.sign({ 'custom:client': 'acme', 'cognito:groups': ['Admins', 'Ops'] }));
    expect(principal).toEqual({
      kind: 'user',
      subject: 'user-1',
      email: 'ada@example.com',
      client: 'acme',
      groups: ['Admins', 'Ops'],
      tokenIssuer: issuer.issuer,
    });
  });

  it("takes the person's name from the token's given and family names, else its name claim", async () => {
    const named = await verifier.verify(await issuer.sign({ 'custom:client': 'acme', given_name: 'Ada', family_name: 'Lovelace', name: 'ignored' }));
    expect(named).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(await verifier.verify(await issuer.sign({ 'custom:client': 'acme', name: ' Ada L ' }))).toMatchObject({ name: 'Ada L' });
    expect(await verifier.verify(await issuer.sign({ 'custom:client': 'acme', given_name: ' ' }))).not.toHaveProperty('name');
  });

  it('refuses an expired token', async () => {
    const token = await issuer.sign({}, { expiresIn: now() - 60 });
    expect(await refusal(token)).toEqual({ status: 401, message: 'Token expired' });
  });

  it('tolerates a few seconds of clock skew but no more', async () => {
    await expect(verifier.verify(await issuer.sign({}, { expiresIn: now() - 2 }))).resolves.toBeDefined();
    expect((await refusal(await issuer.sign({ nbf: now() + 120 }))).message).toBe('Token not yet valid');
  });

  it('refuses another issuer and another audience', async () => {
    const other = await createTestIssuer('https://evil.example.com', issuer.audience);
    const foreign = createOidcTokenVerifier({ issuer: issuer.issuer, audiences: [issuer.audience], keySource: other.keySource });
    expect(await refusal(await other.sign(), foreign)).toEqual({ status: 401, message: 'Token issuer invalid' });
    const wrongAudience = createOidcTokenVerifier({ issuer: issuer.issuer, audiences: ['someone-else'], keySource: issuer.keySource });
    expect(await refusal(await issuer.sign(), wrongAudience)).toEqual({ status: 401, message: 'Token audience invalid' });
  });

  it('refuses alg none', async () => {
    const token = new UnsecuredJWT({ 'custom:client': 'acme', sub: 'user-1' })
      .setIssuer(issuer.issuer)
      .setAudience(issuer.audience)
      .setExpirationTime('1h')
      .encode();
    expect((await refusal(token)).status).toBe(401);
  });

  it('refuses HS256, even signed with the public key as the secret', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(issuer.jwks.keys[0]));
    const token = await new SignJWT({ 'custom:client': 'acme' })
      .setProtectedHeader({ alg: 'HS256', kid: 'test-key' })
      .setIssuer(issuer.issuer)
      .setAudience(issuer.audience)
      .setSubject('user-1')
      .setExpirationTime('1h')
      .sign(secret);
    expect(await refusal(token)).toEqual({ status: 401, message: 'Token algorithm not allowed' });
  });

  it('refuses a tampered payload', async () => {
    const [header, , signature] = (await issuer.sign({ 'custom:client': 'acme' })).split('.');
    const forged = base64url.encode(
      JSON.stringify({ 'custom:client': 'globex', sub: 'user-1', iss: issuer.issuer, aud: issuer.audience, exp: now() + 3600 }),
    );
    expect(await refusal(`${header}.${forged}.${signature}`)).toEqual({ status: 401, message: 'Token signature invalid' });
  });

  it('refuses garbage, huge tokens and unknown keys with 401', async () => {
    for (const token of ['', 'a.b.c', 'not-a-token', 'x'.repeat(20_000), '....', `${'e30'}.${'e30'}.`]) {
      expect((await refusal(token)).status, token.slice(0, 20)).toBe(401);
    }
    expect(await refusal(await issuer.sign({}, { kid: 'unknown' }))).toEqual({ status: 401, message: 'Token signing key unknown' });
  });

  it('refuses tokens without the client claim, and access tokens', async () => {
    expect((await refusal(await issuer.sign({ 'custom:client': undefined }))).message).toBe('Token claim invalid: custom:client');
    expect((await refusal(await issuer.sign({ token_use: 'access' }))).message).toBe('Token is not an id token');
  });
});

describe('createOidcTokenVerifier with the issuer\'s discovery document and JWKS', () => {
  let server: Server;
  let base: string;
  let remote: TestIssuer;
  let discoveredIssuer: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/oidc/.well-known/openid-configuration') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ issuer: discoveredIssuer, jwks_uri: `${base}/oidc/jwks` }));
      } else if (request.url === '/oidc/jwks') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(remote.jwks));
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    remote = await createTestIssuer(`${base}/oidc`, 'portal-app');
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    clearDiscoveryCache();
    clearKeySetCache();
    discoveredIssuer = remote.issuer;
  });

  it('verifies against the remote key set', async () => {
    const remoteVerifier = createOidcTokenVerifier({ issuer: remote.issuer, audiences: ['portal-app'] });
    await expect(remoteVerifier.verify(await remote.sign())).resolves.toMatchObject({ client: 'acme' });
  });

  it('refuses to trust a discovery document naming another issuer (503, not 401)', async () => {
    discoveredIssuer = 'https://evil.example.com';
    const remoteVerifier = createOidcTokenVerifier({ issuer: remote.issuer, audiences: ['portal-app'] });
    expect((await refusal(await remote.sign(), remoteVerifier)).status).toBe(503);
  });

  it('answers 503 when the issuer is unreachable: the caller is not at fault', async () => {
    const unreachable = createOidcTokenVerifier({ issuer: 'http://127.0.0.1:9/nothing', audiences: ['portal-app'] });
    expect((await refusal(await remote.sign(), unreachable)).status).toBe(503);
  });
});
