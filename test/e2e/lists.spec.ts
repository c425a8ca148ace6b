import { expect, storageStateOf, test } from './support/fixtures.ts';
import { readCsvDownload } from './support/csv.ts';

/**
 * The device list's cursor and CSV export. Tenant acme has 60 more devices than the demo fleet (the global setup
 * writes them): more than the API's page of 50, so "Load more" appears.
 */
test.use({ storageState: storageStateOf('acmeAdmin') });

test('/dashboard/devices: Load more, then Export CSV of exactly what is shown', async ({ page }) => {
  await page.goto('/dashboard/devices');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Devices');
  const table = page.getByRole('table', { name: /devices/i });
  const bodyRows = table.locator('tbody tr:not([aria-hidden])');
  await expect(bodyRows).toHaveCount(50);
  await expect(page.getByText('50 shown, more available')).toBeVisible();

  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(page.getByText(/^60 shown$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await expect(bodyRows).toHaveCount(60);

  const headers = (await table.locator('thead th').allTextContents()).map((text) => text.trim());
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = readCsvDownload(await download.path());
  expect(csv[0]).toEqual(headers);
  expect(csv.length - 1).toBe(60);
  // Every row has one value per column.
  for (const row of csv.slice(1)) expect(row).toHaveLength(headers.length);
});

test('/dashboard/access/groups: "Group starts with" filters through the API and lives in the URL', async ({ page }) => {
  await page.goto('/dashboard/access/groups');
  const table = page.getByRole('table', { name: /groups/i });
  const bodyRows = table.locator('tbody tr:not([aria-hidden])');
  await expect(bodyRows.filter({ hasText: 'sales' })).toHaveCount(1);
  await expect(bodyRows.filter({ hasText: 'compliance' })).toHaveCount(1);

  const asked = page.waitForRequest((request) => new URL(request.url()).searchParams.get('starts_with') === 'sal');
  await page.getByRole('search', { name: 'Filter groups' }).getByLabel('Group starts with').fill('sal');
  await asked;
  await expect(page).toHaveURL(/starts_with=sal/);
  await expect(bodyRows).toHaveCount(1);
  await expect(bodyRows.first()).toContainText('sales');

  // A reload keeps the filter; one that matches nothing says so.
  await page.goto('/dashboard/access/groups?starts_with=zz-none');
  await expect(page.getByLabel('Group starts with')).toHaveValue('zz-none');
  await expect(page.getByText('No groups start with “zz-none”.')).toBeVisible();
});

test('/dashboard/devices/logs: days are shown and typed dd/mm/yyyy whatever the browser\'s locale, and sent as ISO days', async ({ page }) => {
  await page.goto('/dashboard/devices/logs?from=2026-11-01');
  const from = page.getByRole('textbox', { name: 'From' });
  await expect(from).toHaveValue('01/11/2026');

  const asked = page.waitForRequest((request) => new URL(request.url()).searchParams.get('to') === '2026-11-21');
  const to = page.getByRole('textbox', { name: 'To' });
  await to.fill('21/11/2026');
  await to.blur();
  await asked;
  await expect(page).toHaveURL(/to=2026-11-21/);
  await expect(to).toHaveValue('21/11/2026');
});
