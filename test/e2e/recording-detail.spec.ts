import type { Page } from '@playwright/test';
import { apiGet, checkScreen, expect, preferColourMode, savedIdToken, storageStateOf, test, type ColourMode } from './support/fixtures.ts';

/**
 * The recording detail pages against the demo recordings the local stack seeds through the real payload pipeline:
 * speech calls and interviews (8 kHz WAV, waveform peaks computed at processing), an MP4 video, a JPEG photo, an SMS
 * thread with an MMS, a blocked and an aborted call. Each page in light and dark with axe; a call plays and draws its
 * waveform; a span comment is added, edited and closed; a reviewer reads, plays and comments, but edits no one's comment
 * and is offered no download.
 */

interface Listed {
  payload_reference: string;
  payload_type: string;
  payload_state: string;
  is_legacy?: boolean;
}

/** One processed recording of each type, looked up once through the API. */
const refs: Record<string, string> = {};

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  try {
    const listed = await apiGet<{ data: Listed[] }>(request, 'demoAdmin', '/api/v1/demo/payloads?limit=100&payload_state=Processed');
    for (const type of ['Call', 'Interview', 'Photo', 'Video', 'SMS', 'MMS', 'BlockedCall', 'AbortedCall']) {
      // The last of each type: the comment test takes an interview, the player test a call, apart from other runs' first.
      // Recordings a legacy migration brought in (the migrations walk imports some) carry no location: left out.
      const found = listed.data.filter((row) => row.payload_type === type && row.is_legacy !== true).at(-1);
      if (found === undefined) throw new Error(`the demo holds no processed ${type}`);
      refs[type] = found.payload_reference;
    }
  } finally {
    await request.dispose();
  }
});

const SCREENS = [
  { name: 'call-detail', type: 'Call', path: 'calls', title: /^Call / },
  { name: 'blocked-call-detail', type: 'BlockedCall', path: 'calls', title: /^Blocked call · / },
  { name: 'interview-detail', type: 'Interview', path: 'interviews', title: /^Interview / },
  { name: 'photo-detail', type: 'Photo', path: 'photos', title: /^Photo / },
  { name: 'video-detail', type: 'Video', path: 'videos', title: /^Video / },
  { name: 'message-detail', type: 'MMS', path: 'messages', title: /^MMS · / },
] as const;

const pageOf = (screen: { type: string; path: string }) => `/dashboard/services/${screen.path}/${refs[screen.type]}`;

/** Counts the waveform canvas pixels that are drawn (not transparent), inside wavesurfer's open shadow root. */
async function drawnPixels(page: Page): Promise<number> {
  return page.locator('[data-waveform="drawn"]').evaluate((host) => {
    const root = host.firstElementChild?.shadowRoot ?? host.shadowRoot;
    let count = 0;
    for (const canvas of root?.querySelectorAll('canvas') ?? []) {
      const context = canvas.getContext('2d');
      if (context === null || canvas.width === 0 || canvas.height === 0) continue;
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let index = 3; index < pixels.length; index += 4) if ((pixels[index] as number) > 0) count += 1;
    }
    return count;
  });
}

test.describe('as a tenant administrator', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  for (const mode of ['light', 'dark'] as ColourMode[]) {
    for (const screen of SCREENS) {
      test(`${screen.name} (${mode})`, async ({ page }) => {
        await preferColourMode(page, mode);
        await page.goto(pageOf(screen));
        if (screen.type === 'Call' || screen.type === 'Interview') await expect(page.locator('[data-waveform="drawn"]')).toBeVisible({ timeout: 20_000 });
        if (screen.type === 'Photo') await expect(page.getByRole('img', { name: /^Photo / })).toBeVisible();
        if (screen.type === 'MMS') await expect(page.getByRole('list', { name: 'Conversation' }).getByRole('listitem')).toHaveCount(4);
        if (screen.type === 'BlockedCall') await expect(page.getByText('Caller is on the blocked numbers list', { exact: false })).toBeVisible();
        await expect(page.getByRole('region', { name: /Map of/ })).toBeVisible();
        await checkScreen(page, { name: screen.name, title: screen.title, mode });
      });
    }
  }

  test('a call plays: its waveform draws from the peaks, then the audio streams and the playhead moves', async ({ page }) => {
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(request.url()));
    await page.goto(`/dashboard/services/calls/${refs.Call}`);
    const waveform = page.locator('[data-waveform="drawn"]');
    await expect(waveform).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => drawnPixels(page)).toBeGreaterThan(500);
    // The waveform came from its peaks, not from the audio: no request read the whole recording first.
    expect(fetched.some((url) => url.includes('/waveforms/'))).toBe(true);

    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => page.locator('audio').evaluate((audio: HTMLAudioElement) => audio.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.5);
    await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Pause', exact: true }).click();

    // The play was audited: the trail names the administrator.
    await page.reload();
    await expect(page.getByRole('table', { name: 'Audit trail' }).getByRole('row', { name: /Played.*admin@demo\.test/ }).first()).toBeVisible();
  });

  test('a span comment: selected on the waveform, added, played, edited and closed', async ({ page }) => {
    await page.goto(`/dashboard/services/interviews/${refs.Interview}`);
    const waveform = page.locator('[data-waveform="drawn"]');
    await expect(waveform).toBeVisible({ timeout: 20_000 });
    // The interview's pause is marked on the waveform.
    await expect(waveform).toHaveAttribute('aria-label', /pauses at 0:04/);

    // Drag across the first third of the waveform: the form takes the span.
    const box = await waveform.boundingBox();
    if (box === null) throw new Error('no waveform box');
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.35, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const form = page.getByRole('form', { name: 'New comment' });
    await expect(form.getByRole('checkbox', { name: 'About a part of the recording' })).toBeChecked();
    const start = Number(await form.getByLabel('Starts at (seconds)').inputValue());
    const length = Number(await form.getByLabel('Lasts (seconds)').inputValue());
    expect(start).toBeLessThanOrEqual(1);
    expect(length).toBeGreaterThanOrEqual(1);

    const text = `Disclosure read out, checked by the browser test ${Date.now()}`;
    await form.getByLabel('New comment: text').fill(text);
    await form.getByRole('button', { name: 'Add comment' }).click();
    const comment = page.getByRole('listitem').filter({ hasText: text });
    await expect(comment).toBeVisible();
    await expect(form.getByLabel('New comment: text')).toHaveValue('');

    // Its span plays from the list.
    await comment.getByRole('button', { name: /^Play 0:0/ }).click();
    await expect.poll(() => page.locator('audio').evaluate((audio: HTMLAudioElement) => audio.currentTime), { timeout: 15_000 }).toBeGreaterThanOrEqual(start);

    // Edited: a new version, the new text.
    await comment.getByRole('button', { name: /^Edit comment/ }).click();
    const edit = page.getByRole('form', { name: /^Edit comment/ });
    await edit.getByLabel(/^Edit comment \d+: text/).fill(`${text} (edited)`);
    await edit.getByLabel('Lasts (seconds)').fill('2');
    await edit.getByRole('button', { name: 'Save comment' }).click();
    const edited = page.getByRole('listitem').filter({ hasText: `${text} (edited)` });
    await expect(edited).toContainText('version 2');
    await expect(edited.getByRole('button', { name: new RegExp(`^Play .*\\(2 s\\)`) })).toBeVisible();

    // Closed: gone from the open comments.
    await edited.getByRole('button', { name: /^Close comment/ }).click();
    await edited.getByRole('button', { name: 'Close comment', exact: true }).click();
    await expect(page.getByRole('listitem').filter({ hasText: text })).toHaveCount(0);
  });

  test('a photo zooms in and out', async ({ page }) => {
    await page.goto(`/dashboard/services/photos/${refs.Photo}`);
    const photo = page.getByRole('img', { name: /^Photo / });
    await expect(photo).toBeVisible();
    const fitted = (await photo.boundingBox())?.width ?? 0;
    await page.getByRole('button', { name: 'Zoom in on the photo' }).click();
    await page.getByRole('button', { name: 'Zoom in on the photo' }).click();
    await expect(page.getByText(/^400%/)).toBeVisible();
    await expect.poll(async () => (await photo.boundingBox())?.width ?? 0).toBeGreaterThan(fitted);
    await page.getByRole('button', { name: 'Fit the photo to the frame' }).click();
    await expect(page.getByText('Fitted to the frame')).toBeVisible();
  });
});

test.describe('as a reviewer', () => {
  test.use({ storageState: storageStateOf('demoReviewer') });

  test("reads the call, its comments and audit trail, plays and may comment, but edits no one's comment and downloads nothing", async ({ page, request }) => {
    // A comment by the administrator, for the reviewer to read.
    const body = `For the reviewer ${Date.now()}`;
    const created = await request.post(`/api/v1/demo/payloads/${refs.Call}/comments`, {
      headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` },
      data: { message: body, comment_duration: { start_time: 1, duration: 2 } },
    });
    expect(created.status()).toBe(200);

    await page.goto(`/dashboard/services/calls/${refs.Call}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Call /);
    const comment = page.getByRole('listitem').filter({ hasText: body });
    await expect(comment).toBeVisible();
    // The reviewer role reviews: payloads:Play and comments:Create, but no payloads:Download, comments:Update or Delete.
    await expect(page.getByText('Playing is not open to you')).toHaveCount(0);
    await expect(page.getByText('Commenting is not open to you')).toHaveCount(0);
    await expect(page.getByRole('form', { name: 'New comment' })).toBeVisible();
    await expect(comment.getByRole('button', { name: /^Edit comment/ })).toHaveAttribute('aria-disabled', 'true');
    await expect(comment.getByRole('button', { name: /^Close comment/ })).toHaveAttribute('aria-disabled', 'true');
    await expect(page.getByRole('button', { name: 'Download' })).toHaveCount(0);
    await expect(page.locator('[data-waveform="drawn"]')).toBeVisible({ timeout: 20_000 });
    // Its span is shown and offered to play.
    await expect(comment.getByRole('button', { name: /^Play 0:01/ })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Parties' })).toBeVisible();
    await checkScreen(page, { name: 'call-detail-reviewer', title: /^Call /, mode: 'light' });
  });
});
