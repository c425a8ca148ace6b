import type { Browser, Page } from '@playwright/test';
import { errorNotifications, expect, storageStateOf, test, type AccountName } from './support/fixtures.ts';

/**
 * The consoles' round trips through the screens, as people do them: support access asked, approved, used and ended;
 * a notification sent by staff, then cleared and dismissed by the client; a licence limit edited; a client app
 * registered, refused with the message under its field, and deleted.
 */

// Each flow drives two or three signed-in browsers through several screens on a shared, busy machine.
test.describe.configure({ timeout: 150_000 });

async function pageAs(browser: Browser, account: AccountName): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateOf(account) });
  return context.newPage();
}

/** A green confirmation carrying the text (the forms' success notification). */
const notice = (page: Page, text: string | RegExp) => page.locator('.mantine-Notification-root').filter({ hasText: text });

test('support access: staff ask from the client view, the tenant admin approves, staff enter support mode and end it', async ({ browser }) => {
  const reason = `consoles round trip ${Date.now()}`;
  const staff = await pageAs(browser, 'staff');
  const admin = await pageAs(browser, 'demoAdmin');

  // 1. Staff ask demo for its reviewer role from the client view.
  await staff.goto('/internal/clients/demo');
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Client demo');
  await staff.getByRole('button', { name: 'Request access to demo' }).click();
  const dialog = staff.getByRole('dialog', { name: 'Request support access' });
  await expect(dialog.getByRole('textbox', { name: 'Client' })).toHaveValue('demo');
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
  // Sent without a role first: the form says so under the Role field, and sends nothing.
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog.getByText('Choose the role to act with')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Role' }).fill('reviewer');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(notice(staff, 'Support access requested from demo')).toBeVisible();
  await expect(staff.getByRole('row').filter({ hasText: reason })).toContainText('Pending');

  // 2. Staff wait on the Approved list; the tenant admin approves in Support access.
  await staff.goto('/internal/support?status=approved');
  await expect(staff.getByText(/wait.* for a client.s decision/)).toBeVisible();
  await admin.goto('/dashboard/account/support-access');
  const pending = admin.getByRole('row').filter({ hasText: reason });
  await expect(pending).toBeVisible();
  await pending.getByRole('button', { name: /^Approve request/ }).click();
  const approve = admin.getByRole('dialog', { name: 'Approve support access' });
  await expect(approve.getByRole('combobox', { name: 'Access until' })).toHaveValue(/As requested/);
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(notice(admin, 'Support access approved.')).toBeVisible();
  await admin.getByRole('tab', { name: 'Approved' }).click();
  await expect(admin.getByRole('row').filter({ hasText: 'reviewer' }).first()).toBeVisible();

  // 3. The staff list shows the approval by itself (no reload), and staff enter support mode.
  const approved = staff.getByRole('row').filter({ hasText: reason });
  await expect(approved).toBeVisible({ timeout: 20_000 });
  await approved.getByRole('button', { name: 'Enter support mode' }).click();
  await expect(staff).toHaveURL(/\/dashboard$/);
  await expect(staff.getByText('Support mode · demo')).toBeVisible();
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
  await staff.waitForLoadState('networkidle');
  await expect(errorNotifications(staff)).toHaveCount(0);

  // 4. End it: back on the staff list, with no error on the way.
  await staff.getByRole('button', { name: 'End support mode' }).click();
  await expect(staff).toHaveURL(/\/internal\/support/);
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Support access');
  await staff.waitForLoadState('networkidle');
  await expect(errorNotifications(staff)).toHaveCount(0);

  // 5. The tenant admin revokes it; the history says so.
  await admin.reload();
  const live = admin.getByRole('row').filter({ hasText: 'reviewer' }).first();
  await live.getByRole('button', { name: /^Revoke access/ }).click();
  await admin.getByRole('dialog', { name: 'Revoke support access' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(notice(admin, 'Support access revoked.')).toBeVisible();
  await admin.getByRole('tab', { name: 'History' }).click();
  await expect(admin.getByRole('row').filter({ hasText: reason })).toContainText('Revoked');
  await expect(errorNotifications(admin)).toHaveCount(0);
});

test('a notification sent by staff is cleared and dismissed by the client', async ({ browser }) => {
  const first = `consoles alert to clear ${Date.now()}`;
  const second = `consoles alert to dismiss ${Date.now()}`;
  const staff = await pageAs(browser, 'staff');
  const admin = await pageAs(browser, 'demoAdmin');

  // Staff send two notifications to demo only.
  await staff.goto('/internal/alerts');
  for (const message of [first, second]) {
    await staff.getByRole('button', { name: 'Send notification' }).click();
    const dialog = staff.getByRole('dialog', { name: 'Send a notification' });
    await dialog.getByText('Chosen clients', { exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Message' }).fill(message);
    await dialog.getByRole('button', { name: 'Send notification' }).click();
    // No client chosen: the message sits under the Clients field.
    await expect(dialog.getByText('Choose at least one client, or send to all')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Clients' }).click();
    await staff.getByRole('option', { name: /\(demo\)$|^demo$/ }).click();
    await dialog.getByRole('button', { name: 'Send notification' }).click();
    await expect(notice(staff, 'Notification sent to 1 client.').last()).toBeVisible();
    await expect(dialog).toBeHidden();
  }
  await expect(staff.getByRole('row').filter({ hasText: first })).toBeVisible();

  // The client sees them in the header badge and the Operational tab.
  await admin.goto('/dashboard/account/alerts');
  await expect(admin.getByRole('link', { name: /alerts? needs? attention/ })).toBeVisible({ timeout: 30_000 });
  const clearRow = admin.getByRole('row').filter({ hasText: first });
  await expect(clearRow).toBeVisible();

  // Clear one from its detail panel, with a reason.
  await clearRow.getByRole('button', { name: /^Open alert/ }).click();
  const drawer = admin.getByRole('dialog', { name: 'Alert' });
  await expect(drawer.getByText(first).first()).toBeVisible();
  await drawer.getByRole('button', { name: 'Clear', exact: true }).click();
  const clearDialog = admin.getByRole('dialog', { name: 'Clear this alert' });
  await clearDialog.getByRole('textbox', { name: 'Reason' }).fill('Dealt with in the e2e run');
  await clearDialog.getByRole('button', { name: 'Clear this alert' }).click();
  await expect(notice(admin, '1 alert cleared.')).toBeVisible();
  await expect(drawer.getByText('Dealt with in the e2e run')).toBeVisible();
  await admin.getByRole('button', { name: 'Close alert' }).click();
  await expect(clearRow).toContainText('Cleared');

  // Dismiss the other by selecting it in the list.
  const dismissRow = admin.getByRole('row').filter({ hasText: second });
  await dismissRow.getByRole('checkbox').check();
  await admin.getByRole('button', { name: 'Dismiss (1)' }).click();
  await expect(notice(admin, '1 alert dismissed.')).toBeVisible();
  await admin.getByRole('checkbox', { name: /Only alerts still triggered/ }).check();
  await expect(admin.getByRole('row').filter({ hasText: second })).toHaveCount(0);
  await expect(admin.getByRole('row').filter({ hasText: first })).toHaveCount(0);
  await expect(errorNotifications(admin)).toHaveCount(0);
  await expect(errorNotifications(staff)).toHaveCount(0);
});

test('staff edit a licence limit; an out-of-range limit is refused under its field', async ({ browser }) => {
  const staff = await pageAs(browser, 'staff');
  await staff.goto('/internal/licenses');
  await staff.getByRole('button', { name: 'Edit licence limits of acme' }).click();
  const dialog = staff.getByRole('dialog', { name: 'Licence limits of acme' });
  const calls = dialog.getByRole('textbox', { name: 'Calls' });
  const before = await calls.inputValue();
  await calls.fill('100001');
  await dialog.getByRole('button', { name: 'Save limits' }).click();
  await expect(dialog.getByText('Enter a whole number from 0 to 100000')).toBeVisible();
  const next = before === '25' ? '26' : '25';
  await calls.fill(next);
  await dialog.getByRole('button', { name: 'Save limits' }).click();
  await expect(notice(staff, 'Licence limits of acme saved.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(staff.getByRole('progressbar', { name: new RegExp(`^Calls: \\d+ of ${next} used$`) })).toBeAttached();

  // The client sees the new limit on its Licences screen.
  const acme = await pageAs(browser, 'acmeAdmin');
  await acme.goto('/dashboard/account/licenses');
  await expect(acme.getByRole('progressbar', { name: new RegExp(`^Calls: \\d+ of ${next} used$`) })).toBeAttached();
  await expect(errorNotifications(staff)).toHaveCount(0);
});

test('a client app is registered after its field errors are shown, edited and deleted', async ({ browser }) => {
  const admin = await pageAs(browser, 'demoAdmin');
  const reference = `e2e app ${Date.now() % 100000}`;
  await admin.goto('/dashboard/account/apps');
  await admin.getByRole('button', { name: 'Register app' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Register a client app' });
  await dialog.getByRole('textbox', { name: 'Reference' }).fill(reference);
  await dialog.getByRole('textbox', { name: 'Token issuer' }).fill('http://login.example.com');
  await dialog.getByRole('textbox', { name: 'Audience' }).fill('verity-api');
  await dialog.getByRole('textbox', { name: 'JWKS URL' }).fill('https://login.example.com/jwks');
  await dialog.getByRole('button', { name: 'Register app' }).click();
  // The contract's messages, under the fields they concern.
  await expect(dialog.getByText('Must start with https://')).toBeVisible();
  await expect(dialog.locator('[aria-invalid="true"]')).toHaveCount(2);
  await dialog.getByRole('textbox', { name: 'Token issuer' }).fill('https://login.example.com');
  await dialog.getByRole('combobox', { name: 'Roles' }).click();
  await admin.getByRole('option', { name: 'reviewer' }).click();
  await dialog.getByRole('combobox', { name: 'CIDR ranges' }).fill('203.0.113.0/24');
  await dialog.getByRole('combobox', { name: 'CIDR ranges' }).press('Enter');
  await dialog.getByRole('button', { name: 'Register app' }).click();
  await expect(notice(admin, `Client app ${reference} registered.`)).toBeVisible();
  const row = admin.getByRole('row').filter({ hasText: reference });
  await expect(row).toContainText('203.0.113.0/24');

  await row.getByRole('button', { name: `Edit app ${reference}` }).click();
  const edit = admin.getByRole('dialog', { name: `Edit app ${reference}` });
  await edit.getByRole('textbox', { name: 'Audience' }).fill('verity-api-2');
  await edit.getByRole('button', { name: 'Save app' }).click();
  await expect(notice(admin, `Client app ${reference} saved.`)).toBeVisible();
  await expect(row).toContainText('verity-api-2');

  await row.getByRole('button', { name: `Delete app ${reference}` }).click();
  await admin.getByRole('dialog', { name: `Delete app ${reference}` }).getByRole('button', { name: 'Delete' }).click();
  await expect(notice(admin, `Client app ${reference} deleted.`)).toBeVisible();
  await expect(admin.getByRole('row').filter({ hasText: reference })).toHaveCount(0);
  await expect(errorNotifications(admin)).toHaveCount(0);
});
