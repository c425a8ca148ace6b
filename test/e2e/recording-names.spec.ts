import type { Page } from '@playwright/test';
import { apiGet, expect, savedIdToken, settle, storageStateOf, test } from './support/fixtures.ts';

/**
 * Recordings are named in words, spans are kept as drawn, and lists fit the screen, against the demo the local stack
 * seeds: no ULID in any recording title or list cell (people by name, devices by model and number), the person filter
 * finds "Bram Baker" by name, a span drawn on the waveform is saved as drawn to 0.1 s, and every recordings list fits
 * a 1440 x 900 screen with its dates on one line.
 */

/** A ULID (Crockford base 32, 26 characters): the demo's recording and device references. */
const ULID = /\b[0-9A-HJKMNP-TV-Z]{26}\b/;

interface Listed {
  payload_reference: string;
  payload_type: string;
  payload_state: string;
  device_reference: string;
  device_user_reference?: string;
  device_user_name?: string;
  is_legacy?: boolean;
}

let demo: { call: Listed; interview: Listed; device: string; deviceUser: string } | undefined;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  try {
    const listed = await apiGet<{ data: Listed[] }>(request, 'demoAdmin', '/api/v1/demo/payloads?limit=100&payload_state=Processed');
    const alices = listed.data.filter((row) => row.device_user_reference === 'du-alice' && row.is_legacy !== true);
    const call = alices.find((row) => row.payload_type === 'Call');
    const interview = listed.data.find((row) => row.payload_type === 'Interview' && row.is_legacy !== true);
    if (call === undefined || interview === undefined) throw new Error('the demo holds no processed call of Alice Archer or interview');
    demo = { call, interview, device: call.device_reference, deviceUser: 'du-alice' };
  } finally {
    await request.dispose();
  }
});

const LISTS = [
  '/dashboard/services/calls',
  '/dashboard/services/messages',
  '/dashboard/services/interviews',
  '/dashboard/services/photos?view=table',
  '/dashboard/services/videos',
  '/dashboard/services',
  '/dashboard/devices',
];
const scopedLists = () => [`/dashboard/devices/${demo!.device}`, `/dashboard/devices/users/${demo!.deviceUser}?tab=recordings`];

/** Waits for the page's tables to have rows (or say they have none) and the page to settle. */
async function tablesShown(page: Page) {
  await expect(page.locator('table tbody tr').first()).toBeVisible({ timeout: 45_000 });
  await settle(page);
}

/**
 * The text of every visible cell of the page's recordings tables (a device's page also lists its commands and
 * telemetry, which are not recordings), or of every table on a page that lists no recordings (the devices list).
 */
async function cellTexts(page: Page): Promise<string[]> {
  const recordings = page.getByRole('table', { name: /^Recordings of / });
  if ((await recordings.count()) > 0) return recordings.locator('td:visible').allInnerTexts();
  return page.locator('table td:visible').allInnerTexts();
}

test.describe('as admin@demo.test', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  test('recording titles and list cells name people, devices and parties, never a ULID', async ({ page }) => {
    test.setTimeout(300_000);
    for (const path of [...LISTS, ...scopedLists()]) {
      await page.goto(path);
      await tablesShown(page);
      const cells = await cellTexts(page);
      expect(cells.length, path).toBeGreaterThan(0);
      expect(cells.filter((text) => ULID.test(text)), `ULIDs in the cells of ${path}`).toEqual([]);
      expect(await page.title(), path).not.toMatch(ULID);
      await expect(page.getByRole('heading', { level: 1 }), path).not.toHaveText(ULID);
    }
    // People by name in the recordings lists.
    await page.goto('/dashboard/services/calls');
    await tablesShown(page);
    const calls = page.getByRole('table', { name: 'Calls' });
    await expect(calls.getByRole('link', { name: 'Alice Archer' }).first()).toBeVisible();
    expect(await calls.getByRole('cell', { name: 'du-alice' }).count()).toBe(0);

    // The call's page: title, document title and heading say what, who with whom, when and how long.
    await page.goto(`/dashboard/services/calls/${demo!.call.payload_reference}`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(/^Call · Alice Archer → Northwind Trading · \d{1,2} \w{3} \d{4}, \d{2}:\d{2} · 0:10$/, { timeout: 20_000 });
    expect(await page.title()).toBe(`${await heading.innerText()} · Verity`);
    const details = page.locator('dl');
    await expect(details.getByRole('link', { name: 'Alice Archer' })).toBeVisible();
    await expect(details).toContainText('0:10 (10 s)');
    // The player reads the 9.95 s of audio by the same rule: 0:10, not 0:09.
    await expect(page.getByText(/^0:00 \/ 0:10$/)).toBeVisible({ timeout: 20_000 });
    expect(await details.innerText()).not.toMatch(ULID);
  });

  test('the person filter finds Bram Baker by name, and a name that matches nobody says so', async ({ page }) => {
    await page.goto('/dashboard/services/calls');
    await tablesShown(page);
    const person = page.getByRole('combobox', { name: 'Device user' });
    await person.fill('Bram Baker');
    await page.getByRole('option', { name: 'Bram Baker' }).click();
    await expect(page).toHaveURL(/device_user_reference=du-bram/);
    const table = page.getByRole('table', { name: 'Calls' });
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await expect(page.getByText('No calls match these filters.')).toHaveCount(0);
    const people = await table.locator('tbody tr').evaluateAll((rows, column) => {
      const headers = [...(rows[0]?.closest('table')?.querySelectorAll('thead th') ?? [])].map((th) => th.textContent?.trim());
      const at = headers.indexOf(column);
      return rows.map((row) => (row.querySelectorAll('td')[at] as HTMLElement | undefined)?.innerText.split('\n')[0]?.trim());
    }, 'Recorded by');
    expect(new Set(people)).toEqual(new Set(['Bram Baker']));

    await page.goto('/dashboard/services/calls');
    await tablesShown(page);
    await page.getByRole('combobox', { name: 'Device user' }).fill('Nobody Byname');
    await expect(page.getByText('No device user is called "Nobody Byname"')).toBeVisible({ timeout: 10_000 });
    // Nothing was picked: the list is not filtered to an empty one.
    await expect(page).not.toHaveURL(/device_user_reference=/);
    await expect(page.getByRole('table', { name: 'Calls' }).locator('tbody tr').first()).toBeVisible();
  });

  test('a span drawn on the waveform is saved as drawn, to a tenth of a second', async ({ page, request }) => {
    test.setTimeout(120_000);
    const reference = demo!.call.payload_reference;
    const peaks = page.waitForResponse((response) => response.url().includes('/waveforms/'), { timeout: 20_000 });
    await page.goto(`/dashboard/services/calls/${reference}`);
    const { duration } = (await (await peaks).json()) as { duration: number };
    const waveform = page.locator('[data-waveform="drawn"]');
    await expect(waveform).toBeVisible({ timeout: 20_000 });
    const box = await waveform.boundingBox();
    if (box === null) throw new Error('no waveform box');

    // 6.2 s to 8.7 s: whole seconds would have saved 6 to 9 s.
    const xAt = (seconds: number) => box.x + (seconds / duration) * box.width;
    const y = box.y + box.height / 2;
    await page.mouse.move(xAt(6.2), y);
    await page.mouse.down();
    await page.mouse.move(xAt(7.5), y, { steps: 5 });
    await page.mouse.move(xAt(8.7), y, { steps: 5 });
    await page.mouse.up();
    // What was drawn: the selection's own place on the waveform (its left and right edges, as fractions of the
    // recording), to the tenth the span is kept to. Aimed at 6.2 to 8.7 s; a pixel either way may move an end a tenth.
    const drawn = await waveform.evaluate((host, seconds) => {
      const root = host.firstElementChild?.shadowRoot ?? host.shadowRoot;
      const region = [...(root?.querySelectorAll<HTMLElement>('[part~="region"]') ?? [])].find((element) => /\bdrag-\d+/.test(element.getAttribute('part') ?? ''));
      if (region === undefined) return undefined;
      const start = (parseFloat(region.style.left) / 100) * seconds;
      const end = (1 - parseFloat(region.style.right) / 100) * seconds;
      const tenths = (value: number) => Math.round(value * 10);
      return { start_time: tenths(start) / 10, duration: (tenths(end) - tenths(start)) / 10 };
    }, duration);
    if (drawn === undefined) throw new Error('no drawn selection on the waveform');
    expect(Math.abs(drawn.start_time - 6.2)).toBeLessThan(0.15);
    expect(Math.abs(drawn.start_time + drawn.duration - 8.7)).toBeLessThan(0.15);
    const form = page.getByRole('form', { name: 'New comment' });
    await expect(form.getByLabel('Starts at (seconds)')).toHaveValue(String(drawn.start_time));
    await expect(form.getByLabel('Lasts (seconds)')).toHaveValue(String(drawn.duration));

    const text = `Span as drawn, checked by the browser test ${Date.now()}`;
    await form.getByLabel('New comment: text').fill(text);
    await form.getByRole('button', { name: 'Add comment' }).click();
    const clock = (seconds: number) => `0:0${seconds.toFixed(1)}`;
    await expect(page.getByRole('listitem').filter({ hasText: text })).toContainText(
      `${clock(drawn.start_time)} to ${clock(drawn.start_time + drawn.duration)} (${drawn.duration} s)`,
    );

    const saved = await request.get(`/api/v1/demo/payloads/${reference}/comments`, { headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` } });
    const comments = ((await saved.json()) as { data: { comment_body: string; comment_duration?: { start_time: number; duration: number } }[] }).data;
    expect(comments.find((comment) => comment.comment_body === text)?.comment_duration).toEqual(drawn);
  });

  test.describe('at 1440 x 900', () => {
    test.use({ viewport: { width: 1440, height: 900 } });

    test('every recordings list fits the screen without scrolling sideways, its dates on one line', async ({ page }) => {
      test.setTimeout(300_000);
      for (const path of [...LISTS, '/dashboard/services/comments', ...scopedLists()]) {
        await page.goto(path);
        await tablesShown(page);
        const page_ = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, client: document.scrollingElement!.clientWidth }));
        expect(page_.scroll, `the page of ${path} scrolls sideways`).toBeLessThanOrEqual(page_.client);
        const containers = await page
          .locator('[role="region"][aria-label$="(scrollable)"]')
          .evaluateAll((regions) => regions.map((region) => ({ name: region.getAttribute('aria-label'), scroll: region.scrollWidth, client: region.clientWidth })));
        expect(containers.length, path).toBeGreaterThan(0);
        // On failure, the columns' widths say which to narrow.
        const widths = await page.locator('thead th').evaluateAll((cells) => cells.map((cell) => `${cell.textContent?.trim()}=${Math.round(cell.getBoundingClientRect().width)}`).join(' '));
        for (const container of containers) {
          expect(container.scroll, `${container.name} on ${path} scrolls sideways (${container.client} px wide; ${widths})`).toBeLessThanOrEqual(container.client);
        }

        // Each date and time in a recordings list's cell ("27 Nov 2026, 07:59") is drawn as one line box (a device's
        // page also lists its commands and history, which are not recordings lists).
        const recordings = page.getByRole('table', { name: /^Recordings of / });
        const tables = (await recordings.count()) > 0 ? recordings : page.locator('table');
        const wrapped = await tables.locator('td').evaluateAll((cells) => {
          const date = /^\d{1,2} \w{3} \d{4}, \d{2}:\d{2}$/;
          const broken: string[] = [];
          for (const cell of cells) {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
              const text = node.textContent?.trim() ?? '';
              if (!date.test(text)) continue;
              const range = document.createRange();
              range.selectNodeContents(node);
              const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
              if (lines.size > 1) broken.push(text);
            }
          }
          return broken;
        });
        expect(wrapped, `dates broken over lines on ${path}`).toEqual([]);
      }
    });
  });
});
