import { errorNotifications, expect, openStaffPage, savedIdToken, storageStateOf, test } from './support/fixtures.ts';

/**
 * Support mode creates nothing that outlives its grant (docs/decisions.md): staff granted demo's admin role are
 * offered no button the server would refuse them. Registering a client app, a new transfer configuration and creating
 * a role are shown disabled, the tooltip saying support mode cannot do it, while the lists themselves load.
 */
test.use({ storageState: storageStateOf('staff') });

test('in support mode with the admin role, lasting acts are offered disabled, saying why', async ({ page, request }) => {
  const reason = `e2e lasting acts ${Date.now()}`;
  const until = new Date(Date.now() + 2 * 3_600_000).toISOString();
  const created = await request.post('/internal/v1/clients/demo/supportaccess', {
    headers: { authorization: `Bearer ${savedIdToken('staff')}` },
    data: { role: 'admin', request_description: reason, requested_expiry: until },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { request_reference: reference } = (await created.json()) as { request_reference: string };
  const approved = await request.put(`/api/v1/demo/supportaccess/${reference}`, {
    headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` },
    data: { approval_state: 'approved' },
  });
  expect(approved.status(), await approved.text()).toBe(200);

  try {
    await openStaffPage(page, 'Support');
    await page.getByRole('radiogroup', { name: 'Approval state' }).getByText('Approved', { exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: reason });
    await expect(row).toBeVisible({ timeout: 15_000 });
    await row.getByRole('button', { name: 'Enter support mode' }).click();
    await expect(page.getByText('Support mode · demo')).toBeVisible();

    await page.goto('/dashboard/account/apps');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Client apps');
    const register = page.getByRole('button', { name: 'Register app' });
    await expect(register).toHaveAttribute('aria-disabled', 'true');
    await register.hover();
    await expect(page.getByRole('tooltip')).toContainText('Support mode cannot create or change client apps');

    await page.goto('/dashboard/account/transfers/config');
    const configure = page.getByRole('button', { name: 'New configuration' });
    await expect(configure).toHaveAttribute('aria-disabled', 'true');
    await configure.hover();
    await expect(page.getByRole('tooltip')).toContainText('Support mode cannot create or change transfer configurations');

    await page.goto('/dashboard/access/roles');
    const createRole = page.locator('[data-requires-action="roles:Update"]').first();
    await expect(createRole).toHaveAttribute('aria-disabled', 'true');
    await createRole.hover();
    await expect(page.getByRole('tooltip')).toContainText('Support mode cannot create, change or delete roles');
    await expect(errorNotifications(page)).toHaveCount(0);
  } finally {
    await request.put(`/api/v1/demo/supportaccess/${reference}`, {
      headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` },
      data: { approval_state: 'revoked' },
    });
  }
});
