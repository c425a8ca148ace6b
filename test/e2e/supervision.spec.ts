import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiGet, expect, savedIdToken, storageStateOf, test } from './support/fixtures.ts';
import { BASE_URL_ENV, STACK_ENV_ENV } from './support/env.ts';

/**
 * Supervision in a real browser against the local stack: a supervisor's lexicon policy, a message with its term sent
 * by a fleet phone through the device simulator and the payload pipeline, the item in the queue and on its page with
 * the term marked in the text, claimed and closed with a disposition and a note, its history saying who, when and
 * what, the outcomes report counting it; and an item about the supervisor's own communications offers no Close and
 * the API refuses it (403). Serial: one policy and its items run through the walk; a device user's e-mail is put back
 * at the end.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const API = '/api/v1/demo';
/** A word no demo message holds, so only this run's messages raise items on this run's policy. */
const TERM = `moonshot${randomBytes(4).toString('hex').replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] ?? 'a')}`;
const POLICY = `e2e-${TERM}`;
const NOTE = 'Checked with the desk: a nickname for a fund, no promise of returns.';

interface Item {
  item_reference: string;
  state: string;
  device_user_reference?: string;
}
interface DeviceUser {
  device_user_reference: string;
  group?: string;
  services: string[];
  expected_device_count: number;
  email?: string;
  first_name?: string;
  surname?: string;
  is_active: boolean;
}

/** A write on the API as the tenant administrator (test setup and the refusal check; the screens make their own calls). */
async function apiSend(request: APIRequestContext, method: 'POST' | 'PUT', path: string, body: unknown) {
  return request.fetch(path, { method, data: body, headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` } });
}

/** One SMS with `text`, sent by a fleet phone through the device simulator (the payload pipeline evaluates it). */
function sendSms(device: string, text: string): void {
  const stackEnv = process.env[STACK_ENV_ENV];
  const url = process.env[BASE_URL_ENV];
  if (stackEnv === undefined || url === undefined) throw new Error('run through playwright test (global setup)');
  const dataDir = (JSON.parse(stackEnv) as { DATA_DIR?: string }).DATA_DIR;
  if (dataDir === undefined) throw new Error('the stack environment names no DATA_DIR');
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'scripts/device/cli.ts'), 'record', '--type', 'SMS', '--text', text, '--device', device, '--data-dir', dataDir, '--url', url],
    { cwd: ROOT, encoding: 'utf8', timeout: 90_000 },
  );
  if (result.status !== 0) throw new Error(`the simulator's SMS failed: ${result.stdout}\n${result.stderr}`);
}

/** The item this run's policy raised on a person's message, once processing has raised it. */
async function itemOf(request: APIRequestContext, deviceUser: string): Promise<Item> {
  let found: Item | undefined;
  await expect
    .poll(
      async () => {
        const page = await apiGet<{ data: Item[] }>(request, 'demoAdmin', `${API}/supervision/items?policy_reference=${POLICY}&device_user_reference=${deviceUser}`);
        found = page.data[0];
        return found !== undefined;
      },
      { timeout: 120_000, intervals: [500, 1000, 2000] },
    )
    .toBe(true);
  return found as Item;
}

async function openItem(page: Page, reference: string) {
  await page.goto(`/dashboard/supervision/${reference}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Review:');
}

let alice: Item;

test.beforeAll(async ({ playwright, baseURL }) => {
  // The simulator's upload and processing share two cores with the stack and the browsers.
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL });
  try {
    const created = await apiSend(request, 'POST', `${API}/supervision/policies/${POLICY}`, {
      kind: 'Lexicon',
      description: 'Browser test: one made-up word',
      terms: [TERM],
      scope: { payload_types: ['SMS', 'MMS', 'RCS'] },
      review_days: 3,
    });
    if (!created.ok()) throw new Error(`the policy was refused: ${created.status()} ${await created.text()}`);
    sendSms('demo-alice', `Between us, this fund is a ${TERM} and it cannot lose.`);
    alice = await itemOf(request, 'du-alice');
  } finally {
    await request.dispose();
  }
});

test.describe('a supervisor', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  test('finds the message in the queue, reads it with the term marked, claims it and closes it with a disposition and a note', async ({ page }) => {
    // The queue, filtered by this run's policy through the URL: the message's sender by name, its term, its state.
    await page.goto(`/dashboard/supervision?policy_reference=${POLICY}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Review queue' })).toBeVisible();
    await expect(page.getByTestId('queue-total')).toHaveText('1 item matches these filters.');
    const row = page.getByRole('row', { name: /Alice Archer/ });
    await expect(row).toContainText(TERM);
    await expect(row).toContainText('Open');
    await row.getByRole('link', { name: 'Alice Archer' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/supervision/${alice.item_reference}$`));

    // The text, read through the audited view, with the term marked.
    const text = page.locator('blockquote[aria-label="Message text"]');
    await expect(text).toContainText(`this fund is a ${TERM} and it cannot lose`);
    await expect(text.locator('mark')).toHaveText([TERM]);
    await expect(page.getByRole('table', { name: 'Hits' })).toContainText(`Term “${TERM}”`);

    // Claim, then close with a disposition; the note is required for it.
    await page.getByRole('button', { name: 'Claim', exact: true }).click();
    await expect(page.getByTestId('item-state')).toHaveText('Claimed');
    await page.getByRole('combobox', { name: 'Disposition' }).click();
    await page.getByRole('option', { name: 'False positive' }).click();
    await page.getByRole('button', { name: 'Close item' }).click();
    await expect(page.getByText('A note is required for any disposition but No issue')).toBeVisible();
    await page.getByRole('textbox', { name: /^Note/ }).fill(NOTE);
    await page.getByRole('button', { name: 'Close item' }).click();
    await expect(page.getByTestId('item-state')).toHaveText('Closed');

    // The history: who by name, when, what, from which state to which, the disposition and the note.
    const history = page.getByRole('table', { name: 'History' });
    const claimed = history.getByRole('row').filter({ hasText: 'Open → Claimed' });
    await expect(claimed).toContainText('admin@demo.test');
    const closed = history.getByRole('row').filter({ hasText: 'Claimed → Closed' });
    await expect(closed).toContainText('admin@demo.test');
    await expect(closed).toContainText('False positive');
    await expect(closed).toContainText(NOTE);
    await expect(closed.getByRole('cell').first()).toContainText(String(new Date().getFullYear()));
    // A closed item offers Reopen, not Close.
    await expect(page.getByRole('button', { name: 'Close item' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Reopen…' })).toBeVisible();
  });

  test('sees the closed item counted in the outcomes report', async ({ request }) => {
    const report = await apiGet<{ policies: { policy_reference: string; hits: number; closed: number; dispositions: Record<string, number>; false_positive_share?: number }[]; terms: { policy_reference: string; term: string; closed: number }[] }>(
      request,
      'demoAdmin',
      `${API}/supervision/reports/outcomes`,
    );
    const row = report.policies.find((entry) => entry.policy_reference === POLICY);
    expect(row).toMatchObject({ hits: 1, closed: 1, dispositions: { 'False positive': 1, 'No issue': 0 }, false_positive_share: 1 });
    expect(report.terms.find((entry) => entry.policy_reference === POLICY && entry.term === TERM)).toMatchObject({ closed: 1 });
  });

  test('cannot close an item about their own communications: no Close offered, and the API refuses it', async ({ page, playwright, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL });
    // Erin's phone becomes the supervisor's own: the device user carries the supervisor's e-mail (put back after).
    const erin = await apiGet<DeviceUser>(request, 'demoAdmin', `${API}/users/du-erin`);
    const asIs = { group: erin.group, services: erin.services, expected_device_count: erin.expected_device_count, email: erin.email, first_name: erin.first_name, surname: erin.surname, is_active: erin.is_active };
    try {
      const changed = await apiSend(request, 'PUT', `${API}/users/du-erin`, { ...asIs, email: 'Admin@Demo.test' });
      expect(changed.ok(), await changed.text()).toBe(true);
      sendSms('demo-erin', `Keep it quiet: ${TERM} again.`);
      const own = await itemOf(request, 'du-erin');

      await openItem(page, own.item_reference);
      await expect(page.getByText('You cannot close this item')).toBeVisible();
      await expect(page.getByText('It is about your own communications')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Close item' })).toHaveCount(0);
      await expect(page.locator('blockquote[aria-label="Message text"] mark')).toHaveText([TERM]);

      const refused = await apiSend(request, 'PUT', `${API}/supervision/items/${own.item_reference}`, { action: 'close', disposition: 'No issue' });
      expect(refused.status()).toBe(403);
      expect(await refused.text()).toMatch(/own/i);
      const after = await apiGet<Item>(request, 'demoAdmin', `${API}/supervision/items/${own.item_reference}`);
      expect(after.state).not.toBe('Closed');
    } finally {
      await apiSend(request, 'PUT', `${API}/users/du-erin`, asIs);
      await request.dispose();
    }
  });
});
