import { COLOUR_KEY, expect, storageStateOf, test } from './support/fixtures.ts';

/** Spec point 1: colour mode system, light or dark, kept locally; the landing pages force light. */
test.use({ storageState: storageStateOf('demoAdmin') });

test('the Colour mode control switches the scheme, and the choice survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/dashboard');
  const html = page.locator('html');
  const control = page.getByRole('radiogroup', { name: 'Colour mode' });
  await expect(control).toBeVisible();

  await control.getByText('Dark', { exact: true }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  expect(await page.evaluate((key) => localStorage.getItem(key), COLOUR_KEY)).toBe('dark');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');

  await control.getByText('Light', { exact: true }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  expect(await page.evaluate((key) => localStorage.getItem(key), COLOUR_KEY)).toBe('light');

  // System follows the operating system's preference, live.
  await control.getByText('System', { exact: true }).click();
  expect(await page.evaluate((key) => localStorage.getItem(key), COLOUR_KEY)).toBe('auto');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
});

test('the landing pages force light even when the preference is dark, and keep the preference', async ({ page }) => {
  await page.goto('/dashboard');
  await page.getByRole('radiogroup', { name: 'Colour mode' }).getByText('Dark', { exact: true }).click();
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');

  for (const path of ['/', '/cookies', '/privacy', '/terms']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(html, path).toHaveAttribute('data-mantine-color-scheme', 'light');
  }
  expect(await page.evaluate((key) => localStorage.getItem(key), COLOUR_KEY)).toBe('dark');

  // Back in the portal (client-side, from the landing page's button) the preference applies again.
  await page.getByRole('link', { name: 'Open the portal' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
});
