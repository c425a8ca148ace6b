import type { Browser, Page, Route } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { craftedExport } from '../../scripts/migration/sample-rows.ts';
import { readCsvDownload } from './support/csv.ts';
import { checkScreen, errorNotifications, expect, preferColourMode, savedIdToken, SCREENSHOT_DIR, storageStateOf, test, type AccountName, type ColourMode } from './support/fixtures.ts';

/**
 * The migrations screens walked as an administrator moving a firm's history uses them: an import switch changed and
 * saved, an empty file refused before any call, the crafted export (every result type of the catalogue) uploaded with
 * its progress shown (a first upload cut off by the network and sent again), its import followed to its end by the
 * list, its detail opened, the results filtered by one type and downloaded as CSV; and the read-only reviewer offered
 * no submit and no save. Light and dark, axe on every screen.
 */

test.describe.configure({ mode: 'serial', timeout: 180_000 });

async function pageAs(browser: Browser, account: AccountName, mode: ColourMode): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateOf(account), acceptDownloads: true });
  const page = await context.newPage();
  await preferColourMode(page, mode);
  return page;
}

const notice = (page: Page, text: string | RegExp) => page.locator('.mantine-Notification-root').filter({ hasText: text });

/** The crafted export written to a temporary file: its path and its lines. */
function writeCraftedExport(): { path: string; lines: string[] } {
  const lines = craftedExport().map((entry) => entry.line);
  const path = join(mkdtempSync(join(tmpdir(), 'verity-e2e-migration-')), 'crafted-export.ndjson');
  writeFileSync(path, lines.join(''));
  return { path, lines };
}

/** The switches back off, as the other walks expect the tenant (a direct PUT as the admin). */
async function resetSwitches(page: Page): Promise<void> {
  const response = await page.request.put('/api/v1/demo/account/migration', {
    headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` },
    data: { disable_onboarding: false, disable_offboarding: false, disable_payloads: false },
  });
  expect(response.status(), await response.text()).toBe(200);
}

let migrationPath = '';

test('an export is uploaded with its progress, imported with the switch just saved, and its results filtered and downloaded', async ({ browser }) => {
  const page = await pageAs(browser, 'demoAdmin', 'light');
  const crafted = writeCraftedExport();

  await page.goto('/dashboard/account/migrations');
  await expect(page.getByText('No migrations yet. Import a legacy export to start one.')).toBeVisible();
  await checkScreen(page, { name: 'migrations-empty', title: 'Migrations', mode: 'light' });

  // 1. A switch, explained in words, changed and saved.
  const settings = page.getByRole('region', { name: 'Import settings' });
  const offboarding = settings.getByRole('switch', { name: 'Do not offboard device users' });
  await expect(offboarding).not.toBeChecked();
  await expect(settings.getByText(/An offboarded device user new to Verity is not created/)).toBeVisible();
  await offboarding.click();
  await expect(offboarding).toBeChecked();
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(notice(page, 'Import settings saved.')).toBeVisible();
  await expect(settings.getByText(/^Last changed .* by /)).toBeVisible();

  // 2. An empty file is refused before anything is sent.
  const submit = page.getByRole('region', { name: 'Import a legacy export' });
  const fileInput = submit.locator('input[type="file"]');
  await fileInput.setInputFiles({ name: 'empty.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.alloc(0) });
  await expect(submit.getByText('File size: Must be at least 1 byte')).toBeVisible();
  await expect(submit.getByRole('button', { name: 'Upload and import' })).toBeDisabled();

  // 3. The crafted export; the first upload is cut off on its way to storage: the step is named, and sent again.
  await fileInput.setInputFiles(crafted.path);
  const cutOff = (route: Route) => (route.request().method() === 'PUT' ? route.abort('connectionreset') : route.continue());
  await page.route(/\/migrations\/[0-9A-Z]{26}\?/, cutOff);
  await submit.getByRole('button', { name: 'Upload and import' }).click();
  await expect(submit.getByText('The upload failed')).toBeVisible();
  await expect(submit.getByText(/The upload did not reach storage/)).toBeVisible();
  await page.unroute(/\/migrations\/[0-9A-Z]{26}\?/, cutOff);

  // Sent again over a slow line, so its progress is seen moving.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 12 * 1024 });
  await submit.getByRole('button', { name: 'Upload again' }).click();
  const progress = submit.getByRole('progressbar', { name: 'Upload progress' });
  await expect(progress).toBeVisible();
  await expect(submit.getByTestId('upload-progress-words')).toContainText(/Uploading: .* of .* KB/);
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'migrations-uploading-light.png'), fullPage: true });
  await expect(submit.getByText('Import started')).toBeVisible({ timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  // 4. The list follows the import by itself to its end (the crafted file has refused rows: partly failed).
  const row = page.getByRole('row').filter({ hasText: 'crafted-export.ndjson' });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Partly failed')).toBeVisible({ timeout: 90_000 });
  await expect(row.getByText(/\d+ rows read · .* of .*/)).toBeVisible();
  await expect(row.getByText(/\d+ errors · \d+ warnings · \d+ imported/)).toBeVisible();
  await checkScreen(page, { name: 'migrations', title: 'Migrations', mode: 'light' });

  // 5. The detail: counters, summary, every row's result.
  await row.getByRole('link', { name: /^Open migration crafted-export\.ndjson/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/account\/migrations\/[0-9A-Z]{26}$/);
  migrationPath = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Migration of crafted-export.ndjson');
  await expect(page.getByRole('table', { name: 'What the file held' }).getByRole('row', { name: /^Devices/ })).toBeVisible();
  const results = page.getByRole('region', { name: 'Results by row' });
  const table = results.getByRole('table', { name: 'Migration results' });
  await expect(table.locator('tbody tr').first()).toContainText(/\d/);
  await checkScreen(page, { name: 'migration-detail', title: 'Migration of crafted-export.ndjson', mode: 'light' });

  // 6. Filtered by one type: the new offboarded user the saved switch stopped.
  await results.getByRole('combobox', { name: 'Result type' }).click();
  await page.getByRole('option', { name: /^New offboarded user skipped/ }).click();
  await expect(page).toHaveURL(/type=IgnoreOffboardingDisabled/);
  const leaver = table.getByRole('row').filter({ hasText: 'crafted-leaver' });
  await expect(leaver).toBeVisible();
  await expect(leaver).toContainText('Device user');
  const shown = table.locator('tbody tr');
  for (const text of await shown.allTextContents()) expect(text).toContain('New offboarded user skipped');
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'migration-detail-filtered-light.png'), fullPage: true });

  // 7. Every result as CSV (the filter cleared), paged through the cursor: one result per line of the file after its header.
  await results.getByRole('combobox', { name: 'Result type' }).click();
  await page.keyboard.press('Escape');
  await page.goto(migrationPath);
  const expectedText = await results.getByText(/^\d+ results in all$/).textContent();
  const expected = Number(expectedText?.match(/^(\d+)/)?.[1]);
  const downloading = page.waitForEvent('download');
  await results.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^migration-[0-9A-Z]{26}-all\.csv$/);
  const csv = readCsvDownload(await download.path());
  expect(csv[0]).toEqual(['Row', 'Kind', 'Result', 'Entity', 'Reference', 'Message', 'New or updated']);
  const rows = csv.slice(1).filter((line) => line.length > 1);
  expect(rows).toHaveLength(expected);
  const rowNumbers = rows.map((line) => Number(line[0]));
  expect(rowNumbers).toEqual([...rowNumbers].sort((a, b) => a - b));
  expect(new Set(rowNumbers).size).toBe(crafted.lines.length - 1);
  expect(rows.find((line) => line[4] === 'crafted-leaver')?.[2]).toBe('IgnoreOffboardingDisabled');
  expect(rows.find((line) => line[4] === 'crafted-sales')?.[2]).toBe('GroupAdded');
  expect(rows.some((line) => line[1] === 'error' && line[2] === 'DuplicateDeviceReference')).toBe(true);
  await expect(errorNotifications(page)).toHaveCount(0);
  await resetSwitches(page);
});

test('dark mode, and a reviewer sees the migrations and their results but no submit, no save and no start', async ({ browser }) => {
  test.skip(migrationPath === '', 'needs the migration imported by the walk above');
  const dark = await pageAs(browser, 'demoAdmin', 'dark');
  await dark.goto('/dashboard/account/migrations');
  await expect(dark.getByRole('row').filter({ hasText: 'crafted-export.ndjson' })).toHaveCount(1);
  await checkScreen(dark, { name: 'migrations', title: 'Migrations', mode: 'dark' });
  await dark.goto(migrationPath);
  await checkScreen(dark, { name: 'migration-detail', title: 'Migration of crafted-export.ndjson', mode: 'dark' });

  const reviewer = await pageAs(browser, 'demoReviewer', 'light');
  await reviewer.goto('/dashboard/account/migrations');
  await expect(reviewer.getByRole('row').filter({ hasText: 'crafted-export.ndjson' })).toHaveCount(1);
  await expect(reviewer.getByRole('region', { name: 'Import a legacy export' })).toHaveCount(0);
  await expect(reviewer.getByRole('button', { name: 'Upload and import' })).toHaveCount(0);
  const settings = reviewer.getByRole('region', { name: 'Import settings' });
  await expect(settings.getByRole('switch', { name: 'Do not load new recordings' })).toBeDisabled();
  await expect(settings.getByText(/Your roles allow reading these settings, not changing them/)).toBeVisible();
  await expect(reviewer.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
  await checkScreen(reviewer, { name: 'migrations-reviewer', title: 'Migrations', mode: 'light' });
  await reviewer.goto(migrationPath);
  await expect(reviewer.getByRole('heading', { level: 1 })).toHaveText('Migration of crafted-export.ndjson');
  await expect(reviewer.getByRole('button', { name: /^(Start|Resume) import$/ })).toHaveCount(0);
  await expect(reviewer.getByRole('table', { name: 'Migration results' }).locator('tbody tr').first()).toContainText(/\d/);
});
