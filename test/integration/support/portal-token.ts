import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importJWK, SignJWT, type JWK } from 'jose';
import { portalClientId } from '../../../scripts/local/oidc.ts';
import { stack } from './stack.ts';

/**
 * A portal id token for a portal user of a tenant this test made (a run tenant has no account at the local OIDC
 * provider to sign in with): signed with the local provider's own key, with the claims its id tokens carry, so the
 * admin surface (portal sign-in only) verifies it exactly as it verifies a real sign-in.
 */
export async function portalTokenFor(client: string, user: { sub: string; email: string; groups: string[] }): Promise<string> {
  const { keys } = JSON.parse(readFileSync(join(stack().dataDir, 'oidc', 'jwks.json'), 'utf8')) as { keys: Array<JWK & { kid: string }> };
  const [jwk] = keys;
  if (jwk === undefined) throw new Error('The local OIDC provider has no signing key');
  const key = await importJWK(jwk, 'RS256');
  // The tenant's own portal client id when the stack registered one, else a registered one (as for the demo tenants).
  const audience = stack().clientIds.includes(portalClientId(client)) ? portalClientId(client) : portalClientId('demo');
  return new SignJWT({
    email: user.email,
    email_verified: true,
    given_name: 'Test',
    family_name: user.sub,
    'custom:client': client,
    'cognito:groups': user.groups,
    'cognito:username': user.sub,
    token_use: 'id',
  })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
    .setIssuer(stack().oidcIssuer)
    .setAudience(audience)
    .setSubject(user.sub)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key);
}
