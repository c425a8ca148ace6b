import { errorNotifications, expect, savedIdToken, storageStateOf, test } from './support/fixtures.ts';

/**
 * What people read is true and in words: the audit screen says who did what as sentences with the person's name and
 * e-mail (no raw parameters), and the header's alert count is the number of alerts its link lists.
 */
test.describe.configure({ timeout: 120_000 });
test.use({ storageState: storageStateOf('demoAdmin') });

test('the audit screen reads as sentences naming the person, with no raw JSON', async ({ page }) => {
  // Two visits of the devices list: reads of one list by one person fold into one row.
  await page.goto('/dashboard/devices');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/dashboard/account/audit?trail=users');
  const table = page.getByRole('table', { name: 'User activity' });
  await expect(table.getByText(/^Dana Admin \(admin@demo\.test\)$/).first()).toBeVisible({ timeout: 30_000 });
  await expect(table).toContainText('Dana Admin (admin@demo.test) viewed');
  await expect(table).toContainText(/viewed the devices list( \d+ times)?/);
  await expect(table).not.toContainText('{"');
  await expect(table).not.toContainText('devices:List');
  // Filtering by person offers people by name, and keeps only theirs.
  await page.getByRole('textbox', { name: 'Person' }).or(page.getByRole('combobox', { name: 'Person' })).click();
  await page.getByRole('option', { name: 'Dana Admin (admin@demo.test)' }).click();
  await expect(page).toHaveURL(/user_id=demo-admin/);
  await expect(table.getByRole('row').nth(1)).toContainText('Dana Admin (admin@demo.test)');
  await expect(errorNotifications(page)).toHaveCount(0);
});

test("the header's alert count is the number of alerts its link lists", async ({ page, request }) => {
  // An alert in each scope, so the count spans both tabs as a user's does.
  const stamp = Date.now();
  for (const scope of ['ops', 'sec'] as const) {
    const sent = await request.post('/internal/v1/alerts', {
      headers: { authorization: `Bearer ${savedIdToken('staff')}`, 'content-type': 'application/json' },
      data: { scope, severity: 'Low', message: `badge count check ${scope} ${stamp}`, clients: ['demo'] },
    });
    expect(sent.status()).toBe(200);
  }
  await page.goto('/dashboard');
  const badge = page.getByRole('link', { name: /alerts? needs? attention/ });
  await expect(badge).toBeVisible({ timeout: 30_000 });
  await badge.click();
  await expect(page).toHaveURL(/scope=all/);
  const table = page.getByRole('table', { name: 'All alerts' });
  // The list reads every readable scope's alerts: give a busy local stack time to answer.
  await expect(table.getByText(`badge count check sec ${stamp}`)).toBeVisible({ timeout: 60_000 });
  await expect(table.getByText(`badge count check ops ${stamp}`)).toBeVisible();
  // Other tests may raise or clear alerts meanwhile: compare the count and the rows as they stand together.
  await expect(async () => {
    const more = page.getByRole('button', { name: /Load more/ });
    while (await more.isVisible()) await more.click();
    const counted = Number((await badge.innerText()).match(/\d+/)?.[0]);
    const rows = await table.locator('tbody tr').count();
    expect(rows).toBe(counted);
  }).toPass({ timeout: 30_000 });
  await expect(errorNotifications(page)).toHaveCount(0);
});
