import { portalClientId } from '../local/oidc.ts';
import { DEMO_PASSWORD, demoAccounts } from '../local/seed/accounts.ts';

/**
 * Signs a demo account in through the local provider's REAL code flow (authorize → form → code → token), as the
 * portal does, and answers the id token the API takes as a bearer. For scripts (demo fleet, bench) that act as an
 * admin through the API; the integration tests have their own richer helper (test/integration/support/sign-in.ts).
 */
export async function signInDemoAccount(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  const account = demoAccounts().find((candidate) => candidate.email === email);
  if (account === undefined) throw new Error(`Not a demo account: ${email}`);
  const clientId = portalClientId(account.client);
  const redirectUri = `${baseUrl}/sign-in`;
  const discovery = (await (await fetch(`${baseUrl}/oidc/.well-known/openid-configuration`)).json()) as {
    authorization_endpoint: string;
    token_endpoint: string;
  };
  const cookies = new Map<string, string>();
  const request = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size > 0) headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const equals = (pair ?? '').indexOf('=');
      if (equals > 0) cookies.set(pair!.slice(0, equals).trim(), pair!.slice(equals + 1).trim());
    }
    return response;
  };
  /** Follows redirects until a page, or until the portal's redirect URI (answered with its URL, not fetched). */
  const follow = async (start: string, init: RequestInit = {}) => {
    let url = start;
    let response = await request(url, init);
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops += 1) {
      url = new URL(response.headers.get('location') ?? '', url).href;
      if (url.startsWith(redirectUri)) return { url, response };
      response = await request(url);
    }
    return { url, response };
  };

  const state = crypto.randomUUID();
  const authorize = new URL(discovery.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: 'openid email',
    redirect_uri: redirectUri,
    state,
    nonce: crypto.randomUUID(),
  }).toString();
  let landed = await follow(authorize.href);
  if (!landed.url.startsWith(redirectUri)) {
    const html = await landed.response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (action === undefined) throw new Error(`No sign-in form at ${landed.url}`);
    landed = await follow(new URL(action.replace(/&#38;/g, '&'), landed.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: email, password }).toString(),
    });
  }
  const callback = new URL(landed.url);
  const code = callback.searchParams.get('code');
  if (!landed.url.startsWith(redirectUri) || code === null || callback.searchParams.get('state') !== state) {
    throw new Error(`Sign-in of ${email} failed (${landed.response.status})`);
  }
  const tokens = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId }).toString(),
  });
  if (!tokens.ok) throw new Error(`Token exchange for ${email} answered ${tokens.status}`);
  return ((await tokens.json()) as { id_token: string }).id_token;
}
