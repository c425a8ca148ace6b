import { DEMO_PASSWORD, demoAccounts } from '../../../scripts/local/seed/accounts.ts';
import { portalClientId } from '../../../scripts/local/oidc.ts';
import { CookieJar } from './cookie-jar.ts';
import { stack } from './stack.ts';

export interface Tokens {
  id_token: string;
  refresh_token?: string;
  access_token: string;
  expires_in: number;
  token_type: string;
}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

let discovery: Promise<Discovery> | undefined;

/** The provider's discovery document (cached per worker). */
export function oidcDiscovery(): Promise<Discovery> {
  discovery ??= fetch(`${stack().oidcIssuer}/.well-known/openid-configuration`).then(async (response) => {
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    return (await response.json()) as Discovery;
  });
  return discovery;
}

/** The redirect URI the portal registers (`<apiUrl>/sign-in`). */
export function portalRedirectUri(): string {
  return `${stack().apiUrl}/sign-in`;
}

/** A small browser: manual redirects, one cookie jar, relative Locations resolved. */
export class Browser {
  readonly jar = new CookieJar();

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.jar.header();
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.jar.store(response);
    return response;
  }

  /** Follows redirects (303/302 as GET) until a non-redirect, or a redirect to `stopAt` (answered, not fetched). */
  async follow(url: string, init: RequestInit = {}, stopAt?: string): Promise<{ response: Response; url: string }> {
    let current = url;
    let response = await this.request(current, init);
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops += 1) {
      const location = response.headers.get('location');
      if (!location) break;
      current = new URL(location, current).href;
      if (stopAt && current.startsWith(stopAt)) return { response, url: current };
      response = await this.request(current);
    }
    return { response, url: current };
  }
}

export interface SignInResult {
  /** Where the provider sent the browser back to (the portal's `/sign-in?code=…`). */
  callbackUrl: URL;
  code: string;
  browser: Browser;
}

/** The form's action on the provider's sign-in page. */
function formAction(html: string, pageUrl: string): string {
  const match = /<form[^>]*action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no sign-in form on ${pageUrl}:\n${html.slice(0, 500)}`);
  return new URL(match[1]!.replace(/&#38;/g, '&'), pageUrl).href;
}

/**
 * Runs the authorisation part of the REAL code flow: authorize -> the HTML form -> POST username/password ->
 * redirects -> the code on the portal's redirect URI. Throws with the page's text when sign-in fails.
 */
export async function authorize(
  email: string,
  options: { password?: string; clientId?: string; browser?: Browser; scope?: string; redirectUri?: string } = {},
): Promise<SignInResult> {
  const account = demoAccounts().find((candidate) => candidate.email === email);
  const clientId = options.clientId ?? portalClientId(account?.client ?? 'demo');
  const browser = options.browser ?? new Browser();
  const { authorization_endpoint } = await oidcDiscovery();
  const state = crypto.randomUUID();
  const redirectUri = options.redirectUri ?? portalRedirectUri();
  const authorizeUrl = new URL(authorization_endpoint);
  authorizeUrl.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: options.scope ?? 'openid email offline_access',
    redirect_uri: redirectUri,
    state,
    nonce: crypto.randomUUID(),
  }).toString();

  const page = await browser.follow(authorizeUrl.href, {}, redirectUri);
  let finalUrl = page.url;
  if (!finalUrl.startsWith(redirectUri)) {
    const html = await page.response.text();
    if (page.response.status !== 200) throw new Error(`authorize answered ${page.response.status}: ${html.slice(0, 300)}`);
    const submitted = await browser.follow(
      formAction(html, page.url),
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: email, password: options.password ?? DEMO_PASSWORD }).toString(),
      },
      redirectUri,
    );
    finalUrl = submitted.url;
    if (!finalUrl.startsWith(redirectUri)) {
      const text = await submitted.response.text();
      throw new SignInError(submitted.response.status, text);
    }
  }
  const callbackUrl = new URL(finalUrl);
  if (callbackUrl.searchParams.get('state') !== state) throw new Error(`state mismatch in ${finalUrl}`);
  const code = callbackUrl.searchParams.get('code');
  if (!code) throw new Error(`no code in ${finalUrl}`);
  return { callbackUrl, code, browser };
}

/** Sign-in refused: the status and the page the provider showed. */
export class SignInError extends Error {
  constructor(
    readonly status: number,
    readonly page: string,
  ) {
    super(`sign-in refused (${status})`);
  }
}

/** Calls the token endpoint with a form body. */
export async function tokenRequest(form: Record<string, string>): Promise<Response> {
  const { token_endpoint } = await oidcDiscovery();
  return fetch(token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

/** Exchanges a code for tokens (what the portal backend's exchange does). */
export async function exchangeCode(code: string, clientId: string): Promise<Tokens> {
  const response = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: portalRedirectUri(), client_id: clientId });
  if (!response.ok) throw new Error(`token endpoint answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Tokens;
}

const cache = new Map<string, Promise<Tokens>>();

/** Signs in through the real code flow and answers the tokens. Cached per email within a test file. */
export function signIn(email: string, options: { fresh?: boolean } = {}): Promise<Tokens> {
  const cached = cache.get(email);
  if (cached && !options.fresh) return cached;
  const account = demoAccounts().find((candidate) => candidate.email === email);
  if (!account) throw new Error(`not a demo account: ${email}`);
  const clientId = portalClientId(account.client);
  const tokens = authorize(email).then(({ code }) => exchangeCode(code, clientId));
  cache.set(email, tokens);
  return tokens;
}
