import type { Page, Request } from '@playwright/test';
import { apiGet, checkScreen, expect, preferColourMode, settle, storageStateOf, test, type ColourMode } from './support/fixtures.ts';
import { readCsvDownload } from './support/csv.ts';

/**
 * The recordings lists and the services overview against the demo recordings the local stack seeds through the real
 * payload pipeline (calls, interviews, photos, videos, an SMS thread per phone; one Failed, one Quarantined).
 */

interface Listed {
  payload_reference: string;
  payload_type: string;
  payload_state: string;
  device_reference: string;
  device_user_reference?: string;
  payload_time?: string;
}

/** A recording's device and device user, looked up once through the API. */
let refs: { device: string; deviceUser: string } | undefined;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  try {
    const calls = await apiGet<{ data: Listed[] }>(request, 'demoAdmin', '/api/v1/demo/payloads?payload_types=Calls&limit=100');
    const withUser = calls.data.find((row) => row.device_user_reference !== undefined);
    if (withUser === undefined) throw new Error('the demo holds no call with a device user');
    refs = { device: withUser.device_reference, deviceUser: withUser.device_user_reference! };
  } finally {
    await request.dispose();
  }
});

/** API requests the page sends, by path ending (`/payloads`, `/data`, `/receipts`). */
function apiRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/v1/')) seen.push(request);
  });
  return seen;
}
const pathOf = (request: Request) => new URL(request.url()).pathname;

type Screen = { name: string; path: () => string; title: string | RegExp; ready?: (page: Page) => Promise<void> };
const SCREENS: Screen[] = [
  {
    name: 'services',
    path: () => '/dashboard/services',
    title: 'Services',
    ready: async (page) => {
      await expect(page.getByRole('img', { name: /Recordings by type/ })).toBeVisible({ timeout: 20_000 });
      await expect(page.getByRole('img', { name: /Recordings by state/ })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Failed and quarantined recordings' }).locator('tbody tr')).toHaveCount(2);
    },
  },
  { name: 'calls', path: () => '/dashboard/services/calls', title: 'Calls', ready: rowsShown('Calls') },
  { name: 'messages', path: () => '/dashboard/services/messages', title: 'Messages', ready: rowsShown('Messages') },
  { name: 'interviews', path: () => '/dashboard/services/interviews', title: 'Interviews', ready: rowsShown('Interviews') },
  {
    name: 'photos-grid',
    path: () => '/dashboard/services/photos',
    title: 'Photos',
    ready: async (page) => {
      // Photos are shown (and so recorded as viewed) only when asked for.
      await page.getByRole('button', { name: 'Show the photos' }).click();
      const pictures = page.getByRole('list', { name: 'Photos' }).getByRole('img');
      await expect(pictures.first()).toBeVisible();
      // Every thumbnail has loaded through its play link (naturalWidth 0 would be a broken image).
      await expect.poll(() => pictures.evaluateAll((images) => images.every((image) => (image as HTMLImageElement).naturalWidth > 0))).toBe(true);
    },
  },
  { name: 'photos-table', path: () => '/dashboard/services/photos?view=table', title: 'Photos', ready: rowsShown('Photos') },
  { name: 'videos', path: () => '/dashboard/services/videos', title: 'Videos', ready: rowsShown('Videos') },
  { name: 'diagnostics', path: () => '/dashboard/services/diagnostics', title: 'Diagnostics' },
  { name: 'comments', path: () => '/dashboard/services/comments', title: 'Comments' },
  {
    name: 'device-recordings',
    path: () => `/dashboard/devices/${refs!.device}`,
    // Named by model, number and user ("Pixel 8 · 07700900101 · Alice Archer"), not by its reference.
    title: / · /,
    ready: async (page) => {
      await expect(page.getByRole('table', { name: /^Recordings of .+ · / }).locator('tbody tr').first()).toBeVisible({ timeout: 20_000 });
    },
  },
  {
    name: 'device-user-recordings',
    path: () => `/dashboard/devices/users/${refs!.deviceUser}?tab=recordings`,
    title: /^Device user/,
    ready: async (page) => {
      await expect(page.getByRole('table', { name: `Recordings of ${refs!.deviceUser}` }).locator('tbody tr').first()).toBeVisible({ timeout: 20_000 });
    },
  },
];

/** A list's first page may be a worker's first page load too (cold chunks on a busy machine): it gets longer. */
const FIRST_LOAD = { timeout: 30_000 };

function rowsShown(label: string) {
  return async (page: Page) => {
    await expect(page.getByRole('table', { name: label }).locator('tbody tr').first()).toBeVisible(FIRST_LOAD);
    await expect(page.getByText(/Nothing to show|match these filters/)).toHaveCount(0);
  };
}

test.describe('as admin@demo.test', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  for (const mode of ['light', 'dark'] as ColourMode[]) {
    test.describe(`${mode} mode`, () => {
      test.beforeEach(async ({ page }) => preferColourMode(page, mode));
      for (const screen of SCREENS) {
        test(`${screen.name} shows its recordings without an error or an axe violation`, async ({ page }) => {
          await page.goto(screen.path());
          await screen.ready?.(page);
          await checkScreen(page, { name: `recordings-${screen.name}`, title: screen.title, mode });
        });
      }
    });
  }

  // The card counts recordings stored (the daily metrics); its list opens exactly those, not failed or quarantined
  // captures in the same days, so the two numbers are the same fact.
  test('the overview counts by type and open the list they count', async ({ page }) => {
    await page.goto('/dashboard/services');
    const calls = page.getByRole('link', { name: /calls: open the list/ });
    await expect(calls).toHaveText(/^\d+$/);
    const count = Number(await calls.textContent());
    await calls.click();
    await expect(page).toHaveURL(/\/dashboard\/services\/calls\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}&stored=true/);
    await expect(page.getByRole('switch', { name: 'Stored recordings only' })).toBeChecked();
    await expect(page.getByText(new RegExp(`^${count} shown`))).toBeVisible();
  });

  test('filters live in the URL: a reload keeps them and the API is asked with them', async ({ page }) => {
    const requests = apiRequests(page);
    await page.goto('/dashboard/services/calls');
    await expect(page.getByRole('table', { name: 'Calls' }).locator('tbody tr').first()).toBeVisible(FIRST_LOAD);
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await expect(page).toHaveURL(/payload_state=Failed/);
    await page.getByRole('textbox', { name: 'Group' }).fill('no-such-group');
    await expect(page).toHaveURL(/group=no-such-group/);
    await expect(page.getByText('No calls match these filters.')).toBeVisible();

    await page.reload();
    await expect(page.getByRole('combobox', { name: 'State' })).toHaveValue('Failed');
    await expect(page.getByRole('textbox', { name: 'Group' })).toHaveValue('no-such-group');
    const last = requests.filter((request) => pathOf(request).endsWith('/payloads')).at(-1)!;
    const query = new URL(last.url()).searchParams;
    expect(Object.fromEntries(query)).toMatchObject({ payload_types: 'Calls', payload_state: 'Failed', group: 'no-such-group' });

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/dashboard\/services\/calls$/);
  });

  test('Load more follows the cursor, then Export CSV writes exactly what is shown', async ({ page }) => {
    // Pages of 2 (the API's own paging, asked for a small page) so the demo's recordings need several.
    await page.route('**/api/v1/demo/payloads?*', (route) => {
      const url = new URL(route.request().url());
      if (url.searchParams.get('result_type') !== 'total') url.searchParams.set('limit', '2');
      return route.continue({ url: url.toString() });
    });
    await page.goto('/dashboard/services/interviews');
    const table = page.getByRole('table', { name: 'Interviews' });
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(page.getByText('2 shown, more available')).toBeVisible();
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(rows).toHaveCount(4);
    const references = await rows.locator('td:nth-child(2) a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(new Set(references).size).toBe(4);

    const headers = (await table.locator('thead th').allTextContents()).map((text) => text.trim()).filter((text) => text !== 'Select');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('interviews.csv');
    const csv = readCsvDownload(await download.path());
    expect(csv[0]).toEqual(headers);
    expect(csv.slice(1)).toHaveLength(4);
    expect(csv.slice(1).every((row) => row.length === headers.length)).toBe(true);
  });

  test('bulk receipt of three recordings: POST receipts, each row shows its answer', async ({ page }) => {
    await page.goto('/dashboard/services/calls?payload_state=Processed');
    const table = page.getByRole('table', { name: 'Calls' });
    await expect(table.locator('tbody tr').nth(2)).toBeVisible();
    const boxes = table.getByRole('checkbox');
    for (const index of [0, 1, 2]) await boxes.nth(index).check();
    await expect(page.getByText('3 of up to 100 selected.')).toBeVisible();

    const posted = page.waitForRequest((request) => request.method() === 'POST' && pathOf(request).endsWith('/receipts'));
    await page.getByRole('button', { name: 'Confirm receipt' }).click();
    const body = (await posted).postDataJSON() as { payload_references: string[] };
    expect(body.payload_references).toHaveLength(3);
    await expect(table.getByTestId('row-outcome').filter({ hasText: 'Receipt confirmed' })).toHaveCount(3);
    // The list refetched: the three rows now carry the receipt's time and who confirmed it.
    await expect(table.getByText(/^by /)).toHaveCount(3, { timeout: 15_000 });
  });

  test('bulk download links: a row without media says NoS3Url or why, the rest get a link', async ({ page }) => {
    await page.goto('/dashboard/services/interviews');
    const table = page.getByRole('table', { name: 'Interviews' });
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await page.getByRole('button', { name: 'Select all shown' }).click();
    const answered = page.waitForResponse((response) => pathOf(response.request()).endsWith('/data'));
    await page.getByRole('button', { name: 'Get download links' }).click();
    const answer = (await (await answered).json()) as { data: { payload_reference: string; status: string }[] };
    const refused = answer.data.filter((row) => row.status !== 'Ok');
    // The quarantined interview has no stored file to give.
    expect(refused.length).toBeGreaterThan(0);
    await expect(table.getByTestId('row-outcome').filter({ hasText: 'Link ready' })).toHaveCount(answer.data.length - refused.length);
    await expect(table.getByTestId('row-outcome').filter({ hasText: refused[0]!.status })).not.toHaveCount(0);
    await expect(page.getByRole('link', { name: /^Download / })).toHaveCount(answer.data.length - refused.length);
  });
});

test.describe('as reviewer@demo.test (reads only)', () => {
  test.use({ storageState: storageStateOf('demoReviewer') });

  test('sees the lists, may confirm receipts, is offered no download, and asks for nothing unasked', async ({ page }) => {
    const requests = apiRequests(page);
    for (const path of ['/dashboard/services', '/dashboard/services/calls', '/dashboard/services/photos', '/dashboard/services/comments']) {
      await page.goto(path);
      await settle(page);
    }
    await page.goto('/dashboard/services/calls');
    await expect(page.getByRole('table', { name: 'Calls' }).locator('tbody tr').first()).toBeVisible();
    await page.getByRole('table', { name: 'Calls' }).getByRole('checkbox').first().check();
    // A reviewer confirms receipts (its job) but takes no copies.
    await expect(page.getByRole('button', { name: 'Confirm receipt' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Get download links' })).toBeDisabled();

    await page.goto('/dashboard/services/photos');
    await expect(page.getByRole('list', { name: 'Photos' }).getByRole('listitem').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Show the photos' })).toBeVisible();
    await settle(page);
    // Nothing was asked for that the reviewer did not ask for: no data links (photos included), no receipts.
    expect(requests.map(pathOf).filter((path) => path.endsWith('/data') || path.endsWith('/receipts'))).toEqual([]);
    expect(requests.filter((request) => request.method() !== 'GET')).toEqual([]);
  });
});
