import { errorNotifications, expect, storageStateOf, test } from './support/fixtures.ts';

/** Spec point 8: the error notifications. */
test.use({ storageState: storageStateOf('demoAdmin') });

test('404 from the API: "An error occurred" with "Data not found"', async ({ page }) => {
  await page.goto('/dashboard/devices/NO-SUCH-DEVICE');
  const notice = errorNotifications(page).filter({ hasText: 'An error occurred' });
  await expect(notice.first()).toBeVisible();
  await expect(notice.first()).toContainText('Data not found');
});

test('400 from the API: the notification shows the server\'s "path: message" line', async ({ page }) => {
  // The screen takes any group text from the URL; the API's group reference needs at least 2 characters.
  await page.goto('/dashboard/devices?group=x');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Devices');
  const notice = errorNotifications(page).filter({ hasText: 'An error occurred' });
  await expect(notice.first()).toBeVisible();
  await expect(notice.first()).toContainText(/group: \S/);
});

test('unknown path: "Page not found: {path}"', async ({ page }) => {
  await page.goto('/dashboard/no/such/screen');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found: /dashboard/no/such/screen');
});
