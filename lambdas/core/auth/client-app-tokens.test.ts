import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { clientAppToItem } from '../store/entities/client-app.ts';
import { createMemoryTable } from '../testing/memory-table.ts';
import { createTestIssuer, type TestIssuer } from '../testing/test-tokens.ts';
import { dnsResolver, egressAllowList } from '../egress/egress-policy.ts';
import { clearClientAppKeySets, useClientAppEgressCheck, verifyClientAppToken } from './client-app-tokens.ts';

const servers: Server[] = [];
afterEach(async () => {
  clearClientAppKeySets();
  useClientAppEgressCheck(undefined);
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Serves an issuer's key set on loopback, on `port` when given (0: any free port); answers its jwks_uri. */
async function serveKeys(issuer: TestIssuer, port = 0): Promise<string> {
  const server = createServer((_, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(issuer.jwks));
  });
  server.keepAliveTimeout = 1;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const served = (server.address() as AddressInfo).port;
  // The egress policy refuses loopback; this key set server is the one exception, as the local stack's stand-ins are.
  useClientAppEgressCheck({ resolve: dnsResolver, allowList: egressAllowList([`127.0.0.1:${served}`]) });
  return `http://127.0.0.1:${served}/jwks`;
}

function appFor(issuer: TestIssuer, jwksUri: string, appReference: string) {
  return clientAppToItem('acme', {
    app_reference: appReference,
    oidc_config: { issuer: issuer.issuer, audience: issuer.audience, jwks_uri: jwksUri },
    roles: ['admin'],
    cidr_ranges: [],
  });
}

describe('client app tokens', () => {
  it("verifies a token against its app's key set", async () => {
    const issuer = await createTestIssuer('https://first.example.com', 'first-app');
    const table = createMemoryTable([appFor(issuer, await serveKeys(issuer), 'first')]);
    const principal = await verifyClientAppToken(await issuer.sign({ sub: 'caller' }), 'acme', table);
    expect(principal).toMatchObject({ kind: 'client-app', client: 'acme', appReference: 'first', subject: 'caller' });
  });

  it("does not check a second issuer's token against the key set the same address served the first issuer", async () => {
    // One address, two issuers in turn (an app reconfigured, or a port reused): each with its own key under the same kid.
    const first = await createTestIssuer('https://first.example.com', 'first-app');
    const jwksUri = await serveKeys(first);
    const table = createMemoryTable([appFor(first, jwksUri, 'first')]);
    await verifyClientAppToken(await first.sign(), 'acme', table);

    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
    const second = await createTestIssuer('https://second.example.com', 'second-app');
    await serveKeys(second, Number(new URL(jwksUri).port));
    await table.put(appFor(second, jwksUri, 'second'));
    const principal = await verifyClientAppToken(await second.sign(), 'acme', table);
    expect(principal.appReference).toBe('second');
  });

  it('refuses a token signed by another key with the same kid', async () => {
    const issuer = await createTestIssuer('https://first.example.com', 'first-app');
    const impostor = await createTestIssuer('https://first.example.com', 'first-app');
    const table = createMemoryTable([appFor(issuer, await serveKeys(issuer), 'first')]);
    await expect(verifyClientAppToken(await impostor.sign(), 'acme', table)).rejects.toThrow('Token signature invalid');
  });
});
