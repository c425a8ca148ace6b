import { AxeBuilder } from '@axe-core/playwright';
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CspGuard } from './csp-guard.ts';
import { BASE_URL_ENV, RESULTS_DIR_ENV } from './env.ts';

/**
 * Every spec imports `test` and `expect` from here: the stack's URL as baseURL, the CSP guard on every page (a test
 * fails on any Content Security Policy violation, support/csp-guard.ts), and the helpers below.
 */
export const test = base.extend<{ cspGuard: CspGuard }>({
  // The global setup starts the stack on a free port and passes its URL through the environment.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env[BASE_URL_ENV];
    if (url === undefined) throw new Error(`${BASE_URL_ENV} is not set: run through playwright test (global setup)`);
    await use(url);
  },
  cspGuard: [
    async ({ context, browser }, use) => {
      const guard = new CspGuard();
      await guard.watch(context);
      const restore = guard.watchNewContexts(browser);
      try {
        await use(guard);
      } finally {
        restore();
      }
      expect(guard.violations, 'Content Security Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const RESULTS_DIR = process.env[RESULTS_DIR_ENV] ?? join(ROOT, 'test-results');
export const SCREENSHOT_DIR = join(RESULTS_DIR, 'screenshots');
const AUTH_DIR = join(RESULTS_DIR, '.auth');

export const DEMO_PASSWORD = 'Verity-demo-1';

/** The demo accounts (scripts/local/seed/accounts.ts), keyed by a short name for their storage-state files. */
export const ACCOUNTS = {
  demoAdmin: { email: 'admin@demo.test', organisation: 'demo', home: '/dashboard', tenant: true },
  // The demo's second admin: approves what the first asks that shortens a record's life (four eyes).
  demoApprover: { email: 'approver@demo.test', organisation: 'demo', home: '/dashboard', tenant: true },
  demoReviewer: { email: 'reviewer@demo.test', organisation: 'demo', home: '/dashboard', tenant: true },
  acmeAdmin: { email: 'admin@acme.test', organisation: 'acme', home: '/dashboard', tenant: true },
  staff: { email: 'staff@verity.test', organisation: 'admin', home: '/internal', tenant: false },
} as const;
export type AccountName = keyof typeof ACCOUNTS;

/** Where the setup project saves an account's signed-in storage state (local storage `verity.auth`). */
export function storageStateOf(account: AccountName): string {
  mkdirSync(AUTH_DIR, { recursive: true });
  return join(AUTH_DIR, `${account}.json`);
}

/** Local storage keys the portal uses. */
export const AUTH_KEY = 'verity.auth';
export const COLOUR_KEY = 'verity.color-scheme';

export type ColourMode = 'light' | 'dark';

/**
 * Signs in through the portal's /sign-in and the local provider's REAL page (its plain HTML form, scripts/local/
 * oidc-views.ts), and waits until the portal has exchanged the code (the URL leaves /sign-in).
 */
export async function signIn(page: Page, account: AccountName): Promise<void> {
  const { email, organisation } = ACCOUNTS[account];
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Organisation' }).fill(organisation);
  await page.getByRole('button', { name: 'Continue to sign in' }).click();
  // The provider's page: its own origin path under /oidc, no JavaScript.
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Verity' })).toBeVisible();
  await expect(page).toHaveURL(/\/oidc\//);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Back at /sign-in?code=…, then on to the account's home (or /terms the first time).
  await page.waitForURL((url) => url.pathname !== '/sign-in' && !url.pathname.startsWith('/oidc'), { timeout: 20_000 });
}

/** The stored auth state (local storage `verity.auth`) of the page's origin. */
export async function authState(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate((key) => JSON.parse(window.localStorage.getItem(key) ?? '{}') as Record<string, unknown>, AUTH_KEY);
}

/** Sets the colour-mode preference before any page script runs, on every navigation of this page. */
export async function preferColourMode(page: Page, mode: ColourMode | 'auto'): Promise<void> {
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [COLOUR_KEY, mode] as const);
}

/** Error notifications on screen (Mantine notifications are role=alert). */
export function errorNotifications(page: Page) {
  return page.locator('.mantine-Notification-root').filter({ hasText: /An error occurred|Authentication expired/ });
}

/**
 * axe-core (WCAG 2 A and AA): fails listing every serious or critical violation, rule by rule with its targets.
 * `exclude` skips selectors a check cannot judge (none by default).
 */
export async function expectNoSeriousAxeViolations(page: Page, screen: string, exclude: string[] = []): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']);
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const report = serious.map(describeViolation).join('\n');
  expect(serious.map((violation) => violation.id), `axe on ${screen}:\n${report}`).toEqual([]);
}

type AxeViolation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/**
 * One violation as a few readable lines: its rule and help, then its nodes. Contrast failures are grouped by colour
 * pair (one theme colour usually explains many nodes), with a few example targets each.
 */
function describeViolation(violation: AxeViolation): string {
  const head = `${violation.id} (${violation.impact}): ${violation.help}`;
  const groups = new Map<string, string[]>();
  for (const node of violation.nodes) {
    const data = node.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
    const key =
      violation.id === 'color-contrast' && data?.fgColor !== undefined
        ? `${data.fgColor} on ${data.bgColor} (${data.contrastRatio}:1)`
        : (node.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200);
    const targets = groups.get(key) ?? [];
    targets.push(node.target.join(' '));
    groups.set(key, targets);
  }
  const lines = [...groups].map(([key, targets]) => `    ${key}: ${targets.length} node(s), e.g. ${targets.slice(0, 3).join(' | ')}`);
  return [head, ...lines].join('\n');
}

/** Waits for the screen to settle: no request in flight, no loader left. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('status').filter({ hasText: /Loading|Signing you in/ })).toHaveCount(0);
  await expect(page.locator('.mantine-Loader-root:visible')).toHaveCount(0);
}

export interface ScreenCheck {
  /** File name stem of the screenshots: test-results/screenshots/<name>-<mode>.png. */
  name: string;
  /** The h1: exact text, or a RegExp (e.g. /^Device /). */
  title: string | RegExp;
  mode: ColourMode;
  /** Pages that force light whatever the preference (the landing layout). */
  forcedLight?: boolean;
}

/**
 * The walk's check of the page on screen: its h1 visible, the colour scheme applied, no error notification, no serious
 * or critical axe violation, and a full-page screenshot.
 */
export async function checkScreen(page: Page, check: ScreenCheck): Promise<void> {
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveCount(1);
  if (typeof check.title === 'string') await expect(heading).toHaveText(check.title);
  else await expect(heading).toHaveText(check.title);
  await expect(heading).toBeVisible();
  await settle(page);
  const scheme = check.forcedLight ? 'light' : check.mode;
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
  await expect(errorNotifications(page), `error notification on ${check.name}`).toHaveCount(0);
  // The screenshot first, so a screen that fails its axe check still leaves one to look at.
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${check.name}-${check.mode}.png`), fullPage: true, animations: 'disabled' });
  await expectNoSeriousAxeViolations(page, `${check.name} (${check.mode})`);
}

/**
 * Opens a staff-console page by client-side navigation: from the landing page's "Open the portal" (→ /internal),
 * then the navigation link. (The local server answers a direct GET of /internal/… as an API path; see
 * frame.spec.ts "deep link".)
 */
export async function openStaffPage(page: Page, navLabel?: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('link', { name: 'Open the portal' }).click();
  await expect(page).toHaveURL(/\/internal$/);
  if (navLabel !== undefined) await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: navLabel, exact: true }).click();
}

/** The id token the setup project saved for an account (its local storage `verity.auth`), for direct API calls. */
export function savedIdToken(account: AccountName): string {
  const state = JSON.parse(readFileSync(storageStateOf(account), 'utf8')) as {
    origins: { localStorage: { name: string; value: string }[] }[];
  };
  const entry = state.origins.flatMap((origin) => origin.localStorage).find((item) => item.name === AUTH_KEY);
  const token = entry === undefined ? undefined : (JSON.parse(entry.value) as { idToken?: string }).idToken;
  if (token === undefined) throw new Error(`no saved id token for ${account}`);
  return token;
}

/**
 * Approves, as the demo's second admin, a change the first one's call left awaiting a second approver (a 202 from a
 * hold release or a shorter retention period: four eyes), so a spec's setup or clean-up takes effect as it did before.
 * Anything but a 202 is left as it was.
 */
export async function approvePendingChange(request: APIRequestContext, answer: { status(): number; json(): Promise<unknown> }): Promise<void> {
  if (answer.status() !== 202) return;
  const { approval_reference: reference } = (await answer.json()) as { approval_reference: string };
  const approved = await request.post(`/api/v1/demo/approvals/${reference}/approve`, { headers: { authorization: `Bearer ${savedIdToken('demoApprover')}` } });
  if (!approved.ok()) throw new Error(`approving ${reference} answered ${approved.status()}: ${await approved.text()}`);
}

/** GET on the admin API as an account (test data lookups: a device, a device user, a role). */
export async function apiGet<T>(request: APIRequestContext, account: AccountName, path: string): Promise<T> {
  const response = await request.get(path, { headers: { authorization: `Bearer ${savedIdToken(account)}` } });
  if (!response.ok()) throw new Error(`GET ${path} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}
