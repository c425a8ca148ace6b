import type { APIRequestContext, Page } from '@playwright/test';
import { apiGet, expect, storageStateOf, test } from './support/fixtures.ts';

/**
 * What the payload audit says is what happened: opening a recording, drawing its waveform, reloading or refocusing
 * the page writes no "Played"; pressing Play writes exactly one, and pressing it again while the link lives writes
 * nothing more; a photo opened is one "Viewed". The seeded reviewer reviews: plays a call, sees a photo, reads a
 * message, and is offered no download. Recordings are picked apart from the other specs' (they take the last of each
 * type), so their plays do not land on these audit trails.
 */

interface Listed {
  payload_reference: string;
  payload_type: string;
  is_legacy?: boolean;
}
interface Audit {
  records: Array<{ action: string; time: string }>;
}

const refs: Record<string, string> = {};

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  try {
    const listed = await apiGet<{ data: Listed[] }>(request, 'demoAdmin', '/api/v1/demo/payloads?limit=100&payload_state=Processed');
    const ofType = (type: string) => listed.data.filter((row) => row.payload_type === type && row.is_legacy !== true);
    const calls = ofType('Call');
    if (calls.length < 3) throw new Error(`the demo holds ${calls.length} processed calls; these tests need 3`);
    refs.adminCall = calls[0]?.payload_reference ?? '';
    refs.reviewerCall = calls[1]?.payload_reference ?? '';
    for (const type of ['Photo', 'SMS']) {
      const found = ofType(type).at(0);
      if (found === undefined) throw new Error(`the demo holds no processed ${type}`);
      refs[type] = found.payload_reference;
    }
  } finally {
    await request.dispose();
  }
});

/** The payload audit's records of one action, read through the API as the administrator. */
async function recordsOf(request: APIRequestContext, reference: string, action: string): Promise<number> {
  const audit = await apiGet<Audit>(request, 'demoAdmin', `/api/v1/demo/payloads/${reference}/audit`);
  return audit.records.filter((record) => record.action === action).length;
}

/** Data-link requests the page makes (`GET …/data?action=…` or bulk `GET …/data?…`), by action. */
function dataRequests(page: Page): Array<{ action: string | null }> {
  const seen: Array<{ action: string | null }> = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/\/api\/v1\/demo\/(payloads\/[^/]+\/)?data$/.test(url.pathname)) seen.push({ action: url.searchParams.get('action') });
  });
  return seen;
}

async function playheadOf(page: Page): Promise<number> {
  return page.locator('audio').evaluate((audio: HTMLAudioElement) => audio.currentTime);
}

test.describe('as a tenant administrator', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  test('opening a call writes no play record; pressing Play writes exactly one, and Play again reuses its link', async ({ page, request }) => {
    const reference = refs.adminCall as string;
    const before = await recordsOf(request, reference, 'play');
    const links = dataRequests(page);

    await page.goto(`/dashboard/services/calls/${reference}`);
    await expect(page.locator('[data-waveform="drawn"]')).toBeVisible({ timeout: 20_000 });
    // A reload (a remount), the window losing and regaining focus: still nothing asked, nothing recorded.
    await page.reload();
    await expect(page.locator('[data-waveform="drawn"]')).toBeVisible({ timeout: 20_000 });
    await page.evaluate(() => {
      window.dispatchEvent(new Event('blur'));
      window.dispatchEvent(new Event('focus'));
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.waitForLoadState('networkidle');
    expect(links).toEqual([]);
    expect(await recordsOf(request, reference, 'play')).toBe(before);
    await expect(page.locator('audio')).not.toHaveAttribute('src', /.+/);

    // The first Play asks for the link: one request, one record.
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => playheadOf(page), { timeout: 15_000 }).toBeGreaterThan(0.5);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(() => recordsOf(request, reference, 'play')).toBe(before + 1);
    // Played again while the link lives: the same link, no new record.
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.waitForLoadState('networkidle');
    expect(links).toEqual([{ action: 'play' }]);
    expect(await recordsOf(request, reference, 'play')).toBe(before + 1);
    // The trail on the page says so.
    await expect(page.getByRole('table', { name: 'Audit trail' }).getByRole('row', { name: /Played/ })).toHaveCount(before + 1);
  });

  test('a photo opened is one "Viewed" record, and a download is saved under a name that says what it is', async ({ page, request }) => {
    const reference = refs.Photo as string;
    const before = await recordsOf(request, reference, 'view');
    const links = dataRequests(page);
    await page.goto(`/dashboard/services/photos/${reference}`);
    await expect(page.getByRole('img', { name: /^Photo / })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(links).toEqual([{ action: 'view' }]);
    expect(await recordsOf(request, reference, 'view')).toBe(before + 1);
    await expect(page.getByRole('table', { name: 'Audit trail' }).getByRole('row', { name: /Viewed/ }).first()).toBeVisible();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    expect((await download).suggestedFilename()).toMatch(new RegExp(`^photo-(?:[a-z0-9-]+-)?\\d{8}-\\d{4}-${reference}\\.jpg$`));
  });
});

test.describe('as the reviewer', () => {
  test.use({ storageState: storageStateOf('demoReviewer') });

  test('plays a call, sees a photo and reads a message, may comment, and is offered no download', async ({ page, request }) => {
    const call = refs.reviewerCall as string;
    const before = await recordsOf(request, call, 'play');
    await page.goto(`/dashboard/services/calls/${call}`);
    await expect(page.locator('[data-waveform="drawn"]')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('button', { name: 'Download' })).toHaveCount(0);
    await expect(page.getByRole('form', { name: 'New comment' })).toBeVisible();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => playheadOf(page), { timeout: 15_000 }).toBeGreaterThan(0.5);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(() => recordsOf(request, call, 'play')).toBe(before + 1);

    await page.goto(`/dashboard/services/photos/${refs.Photo}`);
    const photo = page.getByRole('img', { name: /^Photo / });
    await expect(photo).toBeVisible();
    await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    await expect(page.getByRole('button', { name: 'Download' })).toHaveCount(0);

    await page.goto(`/dashboard/services/messages/${refs.SMS}`);
    const message = page.getByRole('list', { name: 'Conversation' }).locator('[aria-current="true"]');
    await expect(message).toBeVisible();
    await expect(message.getByText('This message')).toBeVisible();
    await expect(message.getByLabel('Loading the message')).toHaveCount(0);
    await expect(message.getByText(/No text to show|could not be fetched/)).toHaveCount(0);
    await expect(page.getByText('Message contents are not open to you')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Download' })).toHaveCount(0);
  });
});
