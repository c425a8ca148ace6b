import type { PersistentAuthState, UserProfile } from '#shared/contract/entities/account.ts';
import type { TokenExchangeResponse } from '#shared/contract/entities/common.ts';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
import { ADMIN_CLIENT, TOKEN_EXPIRY_SKEW_MS } from '#shared/constants/limits.ts';
import { callEndpoint, type CallInput, type EndpointResponse, type SurfaceBases } from '../api-client.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { reusableFlight } from '../reusable-flight.ts';
import { readAuthState, writeAuthState, type KeyValueStorage } from './auth-storage.ts';

/*
 * The session is platform, not a feature: every feature, the API hooks (lib/api-hooks.ts, lib/use-can.ts) and the
 * shell (components/layout) need it. It lives in lib/ rather than app/ because lib and components sit below the
 * features and may not import app/ (eslint.config.js, web zones); in app/ the API hooks would reach upwards.
 */

/** Where the OAuth `state` waits between leaving for the identity provider and coming back. */
export const SIGN_IN_STATE_KEY = 'verity.sign-in-state';
export const ENDING_SUPPORT_MODE = 'Ending support mode';

const signInUrl = endpointOf(identityEndpoints, 'admin.identity.url');
const tenantExchange = endpointOf(identityEndpoints, 'admin.identity.exchange');
const staffExchange = endpointOf(identityEndpoints, 'internal.identity.exchange');
const profileEndpoint = endpointOf(identityEndpoints, 'admin.profile.get');

/** No id token, or one that could not be refreshed (spec point 8: "Authentication expired", then /sign-in). */
export class AuthExpiredError extends Error {
  override readonly name = 'AuthExpiredError';
  constructor() {
    super('Authentication expired');
  }
}

export type SessionUser = NonNullable<PersistentAuthState['user']>;

export interface SessionDependencies {
  /** localStorage in the browser: the persistent auth state. */
  storage: KeyValueStorage;
  /** sessionStorage in the browser: the OAuth state of a sign-in in progress (one tab's business). */
  flowStorage: KeyValueStorage;
  /** The portal's origin; the sign-in return page is `<origin>/sign-in`. */
  origin: string;
  /** In-app navigation (the router). */
  navigate: (to: string) => void;
  /** Leaves for the identity provider; the one explicit opt-in to external navigation. */
  navigateExternal: (url: string) => void;
  /** Shows a short notice ("Ending support mode"). */
  notify: (message: string) => void;
  now?: () => number;
  fetch?: typeof fetch;
  bases?: SurfaceBases;
  /** Where a failed profile load is reported (spec point 8: only logged). */
  log?: (message: string, error: unknown) => void;
}

/**
 * The signed-in user's session, as spec point 4 describes it: login and logout, token expiry and refresh, the profile,
 * support mode. One instance per page; React reads it through `useSession` (session-context.tsx).
 */
export class Session {
  private state: PersistentAuthState;
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;

  constructor(private readonly deps: SessionDependencies) {
    this.state = readAuthState(deps.storage);
    this.now = deps.now ?? Date.now;
  }

  // ---- state -------------------------------------------------------------------------------------------------

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): PersistentAuthState => this.state;

  /** Logged in means an id token is present (spec point 4). */
  get isLoggedIn(): boolean {
    return this.state.idToken !== undefined;
  }

  /** Admin means client admin and no support reference. */
  get isAdmin(): boolean {
    return this.state.client === ADMIN_CLIENT && this.state.supportReference === undefined;
  }

  get isSupportMode(): boolean {
    return this.state.supportReference !== undefined;
  }

  /** Picks up a change another tab wrote (the `storage` event). */
  reloadFromStorage(): void {
    this.replace(readAuthState(this.deps.storage), { persist: false });
  }

  private update(patch: Partial<PersistentAuthState>): void {
    this.replace({ ...this.state, ...patch });
  }

  private replace(next: PersistentAuthState, { persist = true } = {}): void {
    // Keys set to undefined are dropped so the stored JSON stays what the schema describes.
    this.state = Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined));
    if (persist) writeAuthState(this.deps.storage, this.state);
    for (const listener of this.listeners) listener();
  }

  /** The client whose identity provider issued the token: staff keep their own in support mode. */
  private get tokenClient(): string | undefined {
    return this.state.supportReference !== undefined ? ADMIN_CLIENT : this.state.client;
  }

  // ---- sign-in -----------------------------------------------------------------------------------------------

  /** Login: set the client, clear any support reference, fetch the sign-in URL, navigate to it externally. */
  async login(client: string): Promise<void> {
    this.update({ client, supportReference: undefined });
    const { url } = await callEndpoint(signInUrl, { client, query: this.localPortQuery() }, this.transport());
    const state = crypto.randomUUID();
    this.deps.flowStorage.setItem(SIGN_IN_STATE_KEY, state);
    const target = new URL(url);
    // The state ties the code that comes back to this tab's sign-in (no login CSRF).
    target.searchParams.set('state', state);
    this.deps.navigateExternal(target.href);
  }

  /** On a loopback origin the local identity provider must send the browser back to this very port. */
  private localPortQuery(): { local_port?: string } {
    const origin = new URL(this.deps.origin);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(origin.hostname);
    return loopback && origin.port !== '' ? { local_port: origin.port } : {};
  }

  /**
   * The sign-in return page: checks the state, exchanges the code, stores the tokens and loads the profile.
   * Returns false on any failure (spec point 8: "failed sign-in code exchange: returns failure").
   */
  async completeSignIn(code: string, state: string | undefined): Promise<boolean> {
    const expected = this.deps.flowStorage.getItem(SIGN_IN_STATE_KEY);
    this.deps.flowStorage.removeItem(SIGN_IN_STATE_KEY);
    if (expected === null || state !== expected || this.state.client === undefined) return false;
    try {
      const tokens = await this.exchange({ code, redirect_uri: `${this.deps.origin}/sign-in` });
      this.storeTokens(tokens);
    } catch {
      return false;
    }
    this.loadProfile.reset();
    await this.loadProfile();
    return true;
  }

  private exchange(query: { code: string; redirect_uri: string } | { refresh_token: string }): Promise<TokenExchangeResponse> {
    const client = this.tokenClient;
    if (client === ADMIN_CLIENT) return callEndpoint(staffExchange, { query }, this.transport());
    return callEndpoint(tenantExchange, { client, query }, this.transport());
  }

  private storeTokens(tokens: TokenExchangeResponse): void {
    this.update({
      idToken: tokens.id_token,
      refreshToken: tokens.refresh_token ?? this.state.refreshToken,
      expiresAt: this.now() + tokens.expires_in * 1000,
    });
  }

  /** Logout: clear tokens, expiry, user and support reference; go to /sign-in. The client is remembered. */
  logout(): void {
    const client = this.state.supportReference !== undefined ? ADMIN_CLIENT : this.state.client;
    this.replace({ client });
    this.refresh.reset();
    this.loadProfile.reset();
    this.deps.navigate('/sign-in');
  }

  // ---- tokens ------------------------------------------------------------------------------------------------

  /** A token good for at least 5 more seconds, refreshing first when needed. */
  async token(): Promise<string> {
    if (this.state.idToken === undefined) throw new AuthExpiredError();
    const expiresAt = this.state.expiresAt ?? 0;
    // Spec point 9: a token is treated as expired a little early, so a call never leaves with one that dies in flight.
    if (this.now() >= expiresAt - TOKEN_EXPIRY_SKEW_MS) await this.refresh();
    const token = this.state.idToken;
    if (token === undefined) throw new AuthExpiredError();
    return token;
  }

  /** One refresh in flight at a time, reusable for 1000 ms; a failed refresh logs the user out. */
  readonly refresh = reusableFlight(async (): Promise<void> => {
    const refreshToken = this.state.refreshToken;
    if (refreshToken === undefined) {
      this.logout();
      throw new AuthExpiredError();
    }
    try {
      this.storeTokens(await this.exchange({ refresh_token: refreshToken }));
    } catch {
      this.logout();
      throw new AuthExpiredError();
    }
  });

  // ---- profile -----------------------------------------------------------------------------------------------

  /** One profile load in flight at a time, reusable for 1000 ms. A failure is only logged (spec point 8). */
  readonly loadProfile = reusableFlight(async (): Promise<SessionUser | undefined> => {
    try {
      const profile = await this.call(profileEndpoint, {});
      const user = toSessionUser(profile);
      this.update({ user });
      return user;
    } catch (error) {
      (this.deps.log ?? console.warn)('Verity: the profile could not be loaded', error);
      return undefined;
    }
  });

  // ---- support mode ------------------------------------------------------------------------------------------

  /** Enter support mode: store the support reference and client, reload the profile, go to /dashboard. */
  async enterSupportMode(supportReference: string, client: string): Promise<void> {
    if (!this.isAdmin) throw new Error('Only provider staff outside support mode can enter support mode');
    this.update({ supportReference, client, user: undefined });
    this.loadProfile.reset();
    await this.loadProfile();
    this.deps.navigate('/dashboard');
  }

  /** End support mode: only in support mode; back to client admin, "Ending support mode", profile, /internal/support. */
  async endSupportMode(): Promise<void> {
    if (!this.isSupportMode) throw new Error('Support mode is not active');
    this.update({ supportReference: undefined, client: ADMIN_CLIENT, user: undefined });
    this.deps.notify(ENDING_SUPPORT_MODE);
    this.loadProfile.reset();
    await this.loadProfile();
    this.deps.navigate('/internal/support');
  }

  // ---- calls -------------------------------------------------------------------------------------------------

  /**
   * Calls an authenticated endpoint as the signed-in user: a fresh token, the tenant from the session unless the
   * input names one, and `internal-<reference>` in support mode. The support header goes to tenant endpoints only:
   * the server refuses it on the staff (internal) surface, and a staff screen still mounted while support mode
   * begins would otherwise fail with "Support access applies to tenant endpoints only".
   */
  async call<E extends Endpoint>(endpoint: E, input: CallInput<E>, signal?: AbortSignal): Promise<EndpointResponse<E>> {
    const token = await this.token();
    const client = (input as { client?: string }).client ?? this.state.client;
    return callEndpoint(endpoint, { ...input, client } as CallInput<E>, {
      ...this.transport(),
      token,
      supportReference: endpoint.surface === 'internal' ? undefined : this.state.supportReference,
      signal,
    });
  }

  private transport(): { fetch?: typeof fetch; bases?: SurfaceBases } {
    return { fetch: this.deps.fetch, bases: this.deps.bases };
  }
}

function toSessionUser(profile: UserProfile): SessionUser {
  return {
    reference: profile.user_reference,
    actions: profile.actions,
    groups: profile.groups,
    roles: profile.roles,
    payloadTypes: profile.payload_types,
    userGroup: profile.user_group,
    portalConfig: profile.portal_config,
  };
}
