import { authState, errorNotifications, expect, openStaffPage, savedIdToken, storageStateOf, test } from './support/fixtures.ts';

/**
 * Support mode (spec point 4): staff ask tenant demo for access, an admin of demo approves it through the admin API,
 * staff enter support mode from /internal/support and end it again.
 */
test.use({ storageState: storageStateOf('staff') });

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

test('the Request access form sends the request to the client', async ({ page }) => {
  const reason = `e2e form check ${Date.now()}`;
  await openStaffPage(page, 'Support');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Support access');
  await page.getByRole('button', { name: 'Request access' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request support access' });
  await dialog.getByRole('textbox', { name: 'Client' }).fill('demo');
  await dialog.getByRole('combobox', { name: 'Role' }).fill('reviewer');
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
  const created = page.waitForResponse(
    (response) => response.request().method() === 'POST' && /\/internal\/v1\/clients\/demo\/supportaccess$/.test(response.url()),
    { timeout: 10_000 },
  );
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await Promise.race([
    created,
    // Fail fast, with the portal's own words, when the form refuses before sending.
    errorNotifications(page).first().waitFor({ state: 'visible', timeout: 10_000 }).then(async () => {
      throw new Error(`the form showed an error instead of sending: ${(await errorNotifications(page).first().textContent()) ?? ''}`);
    }),
  ]);
  expect((await created).ok()).toBe(true);
  await expect(dialog).toBeHidden();
  await page.getByRole('radiogroup', { name: 'Approval state' }).getByText('Pending', { exact: true }).click();
  await expect(page.getByRole('row').filter({ hasText: reason })).toBeVisible();
});

test('staff enter support mode once demo approves, and end it', async ({ page, request }) => {
  const reason = `e2e support check ${Date.now()}`;

  // 1. Staff ask tenant demo for its reviewer role (internal API, with the staff's own token).
  const created = await request.post('/internal/v1/clients/demo/supportaccess', {
    headers: { authorization: `Bearer ${savedIdToken('staff')}` },
    data: { role: 'reviewer', request_description: reason, requested_expiry: inHours(4) },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { request_reference: reference } = (await created.json()) as { request_reference: string };

  // 2. An admin of demo approves it through the admin API (PUT supportaccess/{ref}).
  const approved = await request.put(`/api/v1/demo/supportaccess/${reference}`, {
    headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` },
    data: { approval_state: 'approved' },
  });
  expect(approved.status(), await approved.text()).toBe(200);

  // 3. Staff: /internal/support, Approved filter, enter support mode.
  await openStaffPage(page, 'Support');
  await page.getByRole('radiogroup', { name: 'Approval state' }).getByText('Approved', { exact: true }).click();
  const row = page.getByRole('row').filter({ hasText: reason });
  await expect(row).toBeVisible();

  const authorizations: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes('/api/v1/demo/')) authorizations.push(sent.headers().authorization ?? '');
  });
  await row.getByRole('button', { name: 'Enter support mode' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Support mode · demo')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
  await page.waitForLoadState('networkidle');
  const state = await authState(page);
  expect(state.supportReference).toBe(reference);
  expect(state.client).toBe('demo');
  expect(authorizations.length).toBeGreaterThan(0);
  for (const header of authorizations) expect(header).toMatch(new RegExp(`^internal-${reference} \\S+$`));
  await expect(errorNotifications(page)).toHaveCount(0);

  // 4. End it: the notice, then back on /internal/support as staff.
  await page.getByRole('button', { name: 'End support mode' }).click();
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Ending support mode' })).toBeVisible();
  await expect(page).toHaveURL(/\/internal\/support/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Support access');
  const after = await authState(page);
  expect(after.supportReference).toBeUndefined();
  expect(after.client).toBe('admin');
});

test('the round trip through both portals (request, approve, enter, end) shows no error', async ({ page, browser, baseURL }) => {
  const reason = `e2e round trip ${Date.now()}`;
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400 && /\/(api|internal)\/v1\//.test(response.url())) refused.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });

  // 1. Staff ask demo for its reviewer role through the staff console's form.
  await openStaffPage(page, 'Support');
  await page.getByRole('button', { name: 'Request access' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request support access' });
  await dialog.getByRole('textbox', { name: 'Client' }).fill('demo');
  await dialog.getByRole('combobox', { name: 'Role' }).fill('reviewer');
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toBeHidden();

  // 2. An admin of demo approves it in the tenant's own portal.
  const tenant = await browser.newContext({ baseURL, storageState: storageStateOf('demoAdmin') });
  try {
    const tenantPage = await tenant.newPage();
    await tenantPage.goto('/dashboard/account/support-access');
    const pending = tenantPage.getByRole('row').filter({ hasText: reason });
    await expect(pending).toBeVisible({ timeout: 15_000 });
    await pending.getByRole('button', { name: /^Approve request/ }).click();
    const decision = tenantPage.getByRole('dialog', { name: 'Approve support access' });
    await decision.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(tenantPage.locator('.mantine-Notification-root').filter({ hasText: 'Support access approved.' })).toBeVisible();
    await expect(errorNotifications(tenantPage)).toHaveCount(0);
  } finally {
    await tenant.close();
  }

  // 3. Staff enter support mode: the dashboard of demo, and no error at any point.
  await page.getByRole('radiogroup', { name: 'Approval state' }).getByText('Approved', { exact: true }).click();
  const row = page.getByRole('row').filter({ hasText: reason });
  await expect(row).toBeVisible({ timeout: 15_000 });
  await row.getByRole('button', { name: 'Enter support mode' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Support mode · demo')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(errorNotifications(page)).toHaveCount(0);
  await expect(page.getByText('Support access applies to tenant endpoints only')).toHaveCount(0);

  // 4. End it: back in the staff console, still without an error.
  await page.getByRole('button', { name: 'End support mode' }).click();
  await expect(page).toHaveURL(/\/internal\/support/);
  await page.waitForLoadState('networkidle');
  await expect(errorNotifications(page)).toHaveCount(0);
  expect(refused).toEqual([]);
});
