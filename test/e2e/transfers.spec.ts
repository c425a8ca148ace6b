import type { Browser, Locator, Page } from '@playwright/test';
import { generateKey, readKey } from 'openpgp';
import { join } from 'node:path';
import { SFTP_ENV } from './support/env.ts';
import { checkScreen, errorNotifications, expect, preferColourMode, savedIdToken, SCREENSHOT_DIR, storageStateOf, test, type AccountName, type ColourMode } from './support/fixtures.ts';

/**
 * The transfer screens walked as people use them: an SFTP configuration created through the editor (refused first,
 * with each message under its field, the next runs shown as the schedule is typed, the PGP key's fingerprint shown),
 * run now, followed in the transfers list and on its detail page, run again where its state allows, and deleted;
 * the read-only reviewer is offered none of the changes. Light and dark, axe on every screen.
 */

test.describe.configure({ timeout: 150_000 });

async function pageAs(browser: Browser, account: AccountName, mode: ColourMode): Promise<Page> {
  const context = await browser.newContext({ storageState: storageStateOf(account) });
  const page = await context.newPage();
  await preferColourMode(page, mode);
  return page;
}

/** A green confirmation carrying the text. */
const notice = (page: Page, text: string | RegExp) => page.locator('.mantine-Notification-root').filter({ hasText: text });

/** The Mantine error text under the input labelled `label` inside `scope`. */
async function fieldError(scope: Locator, input: Locator): Promise<string> {
  const id = await input.getAttribute('id');
  const wrapper = scope.locator('.mantine-InputWrapper-root, .mantine-Checkbox-Group-root, fieldset').filter({ has: scope.page().locator(`[id="${id}"]`) }).last();
  return (await wrapper.locator('.mantine-InputWrapper-error').first().textContent()) ?? '';
}

/** Creates a configuration through the API (for the screens' dark-mode walk and the reviewer's view). */
async function createConfigByApi(page: Page, baseURL: string, reference: string, body: Record<string, unknown>) {
  const response = await page.request.post(`${baseURL}/api/v1/demo/transfer_configs/${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` },
    data: body,
  });
  expect(response.status(), await response.text()).toBe(201);
}

const SFTP_BODY = {
  target_type: 'SFTP',
  transfer_type: 'Payload',
  payload_types: ['Call', 'SMS'],
  schedule: 'rate(1 day)',
  transfer_file_format: 'Zipped',
  params: { server: 'sftp.example.test', port: 22, root_directory: '/exports', username: 'verity' },
  secured_data: { sftp_password: 'e2e-secret' },
};

test('an SFTP configuration is refused, corrected, saved, run, followed to its transfer, run again and deleted', async ({ browser }) => {
  const reference = `e2e sftp ${Date.now()}`;
  const page = await pageAs(browser, 'demoAdmin', 'light');
  const { publicKey } = await generateKey({ userIDs: [{ name: 'Receiver', email: 'receiver@example.test' }], format: 'armored' });
  const fingerprint = (await readKey({ armoredKey: publicKey })).getFingerprint().toUpperCase();

  await page.goto('/dashboard/account/transfers/config');
  await checkScreen(page, { name: 'transfer-configs', title: 'Transfer configuration', mode: 'light' });

  // 1. The editor, sent with problems: each message lands under its own field and nothing is sent.
  await page.getByRole('button', { name: 'New configuration' }).click();
  const dialog = page.getByRole('dialog', { name: 'New transfer configuration' });
  await dialog.getByRole('textbox', { name: /^Reference/ }).fill(reference);
  await dialog.getByRole('textbox', { name: /^Username/ }).fill('verity');
  const root = dialog.getByRole('textbox', { name: /^Root directory/ });
  await root.fill('exports');
  const schedule = dialog.getByRole('textbox', { name: /^Schedule expression/ });
  await schedule.fill('cron(0 2 * * * *)');
  await dialog.getByRole('button', { name: 'Create configuration' }).click();
  await expect(dialog.getByText('Must start with a leading slash "/"')).toBeVisible();
  await expect(dialog.getByText('Must contain at least 1 item')).toBeVisible();
  await expect(dialog.getByText(/Exactly one of day-of-month \(3rd field\) and day-of-week \(5th field\) must be \?/)).toBeVisible();
  await expect(dialog.getByText('The sftp_password field is required.')).toBeVisible();
  expect(await fieldError(dialog, root)).toBe('Must start with a leading slash "/"');

  // 2. The schedule read as it is typed: in words, and the next five runs.
  await schedule.fill('cron(0 2 * * ? *)');
  const preview = dialog.getByTestId('schedule-preview');
  await expect(preview).toContainText('At 02:00 (UTC)');
  await expect(preview.getByRole('listitem')).toHaveCount(5);
  await schedule.fill('rate(6 hours)');
  await expect(preview).toContainText('Every 6 hours');
  await expect(preview.getByRole('listitem')).toHaveCount(5);

  // 3. The PGP key's fingerprint, read in the browser, is the key's own.
  await dialog.getByRole('textbox', { name: /^PGP public key/ }).fill(publicKey);
  await expect(dialog.getByTestId('pgp-fingerprint')).toHaveText(fingerprint.match(/.{4}/g)!.slice(0, 5).join(' ') + '  ' + fingerprint.match(/.{4}/g)!.slice(5).join(' '));

  // 4. Corrected where the form can tell, but a server the service refuses: its line lands under Server.
  await root.fill('/exports');
  await dialog.getByRole('checkbox', { name: 'Call' }).check();
  await dialog.getByRole('checkbox', { name: 'SMS' }).check();
  await dialog.getByLabel(/SFTP password/).fill('e2e-secret');
  const server = dialog.getByRole('textbox', { name: /^Server/ });
  await server.fill('bad host!');
  await dialog.getByRole('button', { name: 'Create configuration' }).click();
  await expect(dialog.getByText('Must be a host name or an IP address')).toBeVisible();
  expect(await fieldError(dialog, server)).toBe('Must be a host name or an IP address');
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'transfer-config-editor-refused-light.png'), fullPage: true });

  // 5. Saved: the list shows it with its schedule in words and a next run.
  await server.fill('sftp.example.test');
  await dialog.getByRole('button', { name: 'Create configuration' }).click();
  await expect(notice(page, `Transfer configuration ${reference} created.`)).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: reference });
  await expect(row).toContainText('Every 6 hours');
  await expect(row).toContainText('sftp://verity@sftp.example.test:22/exports');
  await expect(row).toContainText('Zip archive + PGP');

  // Opened again for editing: the password is "Set" and never shown.
  await row.getByRole('button', { name: `Edit ${reference}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${reference}` });
  await expect(edit.getByText('Set', { exact: true })).toBeVisible();
  await expect(edit.getByLabel(/Replace sftp password/)).toHaveValue('');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // 6. Run now, and follow the transfer from the notification.
  await row.getByRole('button', { name: `Run ${reference} now` }).click();
  const started = notice(page, `Transfer of ${reference} started`);
  await expect(started).toBeVisible();
  await started.getByRole('button', { name: 'Follow it' }).click();
  await expect(page).toHaveURL(/\/dashboard\/account\/transfers\/[0-9A-Z]{26}$/);
  const transferId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Transfer …${transferId.slice(-8)}`);
  await expect(page.getByRole('link', { name: reference })).toBeVisible();

  // 7. The transfers list shows it with its state; filtered by its configuration.
  await page.goto(`/dashboard/account/transfers?config=${encodeURIComponent(reference)}`);
  const listed = page.getByRole('row').filter({ has: page.getByRole('link', { name: `Open transfer ${transferId}` }) });
  await expect(listed).toBeVisible();
  await expect(listed.getByText(/^(Pending|In progress|Succeeded|Partly failed|Failed)$/)).toBeVisible();
  await checkScreen(page, { name: 'transfers', title: 'Transfers', mode: 'light' });

  // 8. Its detail: summary, progress, files; once the job has given up on the unreachable server, run it again.
  await listed.getByRole('link', { name: `Open transfer ${transferId}` }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Files' })).toBeVisible();
  // The detail follows the job by itself (no reload) until the transfer fails.
  await expect(page.locator('dd').filter({ hasText: /^(Failed|Partly failed)$/ })).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'Why it failed' })).toContainText('Could not reach the SFTP server');
  await checkScreen(page, { name: 'transfer-detail', title: `Transfer …${transferId.slice(-8)}`, mode: 'light' });
  await page.getByRole('button', { name: 'Run again' }).click();
  await expect(notice(page, 'Transfer started again as a new transfer.')).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(`${transferId}$`));
  await expect(page.getByRole('link', { name: `transfer …${transferId.slice(-8)}` })).toBeVisible();

  // 9. Delete the configuration; its transfers stay listed.
  await page.goto('/dashboard/account/transfers/config');
  await page.getByRole('row').filter({ hasText: reference }).getByRole('button', { name: `Delete ${reference}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${reference}` });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(notice(page, `Transfer configuration ${reference} deleted.`)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: reference })).toHaveCount(0);
  await page.goto(`/dashboard/account/transfers?config=${encodeURIComponent(reference)}`);
  await expect(page.getByRole('link', { name: `Open transfer ${transferId}` })).toBeVisible();
  await expect(errorNotifications(page)).toHaveCount(0);
});

test('the transfer screens in dark mode, and as the read-only reviewer with no change offered', async ({ browser, baseURL }) => {
  const reference = `e2e dark ${Date.now()}`;
  const admin = await pageAs(browser, 'demoAdmin', 'dark');
  await createConfigByApi(admin, baseURL!, reference, SFTP_BODY);
  const run = await admin.request.post(`${baseURL}/api/v1/demo/transfer_configs/${encodeURIComponent(reference)}/run`, {
    headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` },
  });
  expect(run.status(), await run.text()).toBe(202);
  const { transfer_id: transferId } = (await run.json()) as { transfer_id: string };

  await admin.goto('/dashboard/account/transfers/config');
  await expect(admin.getByRole('row').filter({ hasText: reference })).toBeVisible();
  await checkScreen(admin, { name: 'transfer-configs', title: 'Transfer configuration', mode: 'dark' });
  await admin.getByRole('button', { name: `View configuration ${reference}` }).click();
  await expect(admin.getByRole('dialog', { name: `Configuration ${reference}` })).toContainText('Every day');
  await checkScreen(admin, { name: 'transfer-config-view', title: 'Transfer configuration', mode: 'dark' });
  await admin.keyboard.press('Escape');

  // An S3 target names the ExternalId its role's trust policy must require.
  const s3Reference = `e2e s3 ${Date.now()}`;
  await createConfigByApi(admin, baseURL!, s3Reference, {
    ...SFTP_BODY,
    target_type: 'S3',
    params: { destination: 's3://customer-archive/verity/', iam_role_arn: 'arn:aws:iam::123456789012:role/VerityExport' },
    secured_data: undefined,
  });
  await admin.reload();
  await admin.getByRole('button', { name: `View configuration ${s3Reference}` }).click();
  await expect(admin.getByRole('dialog', { name: `Configuration ${s3Reference}` }).getByTestId('external-id')).toHaveText('verity-demo');
  await admin.keyboard.press('Escape');
  await admin.request.delete(`${baseURL}/api/v1/demo/transfer_configs/${encodeURIComponent(s3Reference)}`, { headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` } });

  await admin.getByRole('button', { name: 'New configuration' }).click();
  await admin.getByRole('dialog', { name: 'New transfer configuration' }).getByRole('textbox', { name: /^Schedule expression/ }).fill('cron(30 6 ? * MON-FRI *)');
  await checkScreen(admin, { name: 'transfer-config-editor', title: 'Transfer configuration', mode: 'dark' });
  await admin.keyboard.press('Escape');
  await admin.goto('/dashboard/account/transfers');
  await expect(admin.getByRole('link', { name: `Open transfer ${transferId}` })).toBeVisible();
  await checkScreen(admin, { name: 'transfers', title: 'Transfers', mode: 'dark' });
  await admin.goto(`/dashboard/account/transfers/${transferId}`);
  await checkScreen(admin, { name: 'transfer-detail', title: `Transfer …${transferId.slice(-8)}`, mode: 'dark' });

  // The reviewer reads the same screens but is offered no create, edit, run, delete or re-run.
  const reviewer = await pageAs(browser, 'demoReviewer', 'light');
  await reviewer.goto('/dashboard/account/transfers/config');
  const row = reviewer.getByRole('row').filter({ hasText: reference });
  await expect(row).toBeVisible();
  await expect(reviewer.getByRole('button', { name: 'New configuration' })).toHaveAttribute('aria-disabled', 'true');
  await expect(row.getByRole('button', { name: `View configuration ${reference}` })).toBeVisible();
  await expect(reviewer.getByRole('button', { name: /^(Run .* now|Edit |Delete )/ })).toHaveCount(0);
  await expect(reviewer.getByText('Your roles let you read these configurations')).toBeVisible();
  await checkScreen(reviewer, { name: 'transfer-configs-reviewer', title: 'Transfer configuration', mode: 'light' });
  await reviewer.goto(`/dashboard/account/transfers/${transferId}`);
  await expect(reviewer.getByRole('heading', { level: 2, name: 'Files' })).toBeVisible();
  await expect(reviewer.getByRole('button', { name: /^(Run again|Resume)$/ })).toHaveCount(0);

  // Tidy up.
  const removed = await admin.request.delete(`${baseURL}/api/v1/demo/transfer_configs/${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` },
  });
  expect(removed.status()).toBe(200);
});

test('a run delivered to the local SFTP server succeeds, each recording arriving with the SHA-256 its device sealed', async ({ browser, baseURL }) => {
  const sftp = JSON.parse(process.env[SFTP_ENV] ?? 'null') as { host: string; port: number; username: string; password: string; hostKeyFingerprint: string } | null;
  expect(sftp, 'the stack names its SFTP server').not.toBeNull();
  const reference = `e2e delivered ${Date.now()}`;
  const page = await pageAs(browser, 'demoAdmin', 'light');
  // Uncompressed without PGP: each delivered file is the recording itself, so its SHA-256 must be the device's.
  await createConfigByApi(page, baseURL!, reference, {
    ...SFTP_BODY,
    payload_types: ['Call', 'Photo', 'SMS'],
    schedule: '',
    transfer_file_format: 'Uncompressed',
    params: { server: sftp!.host, port: sftp!.port, root_directory: `/e2e-${Date.now()}`, username: sftp!.username, host_key_fingerprint: sftp!.hostKeyFingerprint },
    secured_data: { sftp_password: sftp!.password },
  });

  await page.goto('/dashboard/account/transfers/config');
  const row = page.getByRole('row').filter({ hasText: reference });
  await expect(row).toContainText('On demand');
  await row.getByRole('button', { name: `Run ${reference} now` }).click();
  await notice(page, `Transfer of ${reference} started`).getByRole('button', { name: 'Follow it' }).click();
  await expect(page).toHaveURL(/\/dashboard\/account\/transfers\/[0-9A-Z]{26}$/);

  // The detail follows the job by itself until it is done.
  await expect(page.locator('dd').filter({ hasText: /^Succeeded$/ })).toBeVisible({ timeout: 120_000 });
  const files = page.getByRole('table', { name: 'Transfer files' });
  await expect(files.locator('[data-verdict="match"]').first()).toBeVisible();
  await expect(files.locator('[data-verdict="mismatch"]')).toHaveCount(0);
  const words = (await page.getByText(/^\d+ of \d+ files/).first().textContent()) ?? '';
  const [, done, total] = /^(\d+) of (\d+) files/.exec(words) ?? [];
  expect(Number(done)).toBeGreaterThan(0);
  expect(done).toBe(total);
  await expect(page.getByRole('button', { name: /^(Run again|Resume)$/ })).toHaveCount(0);
  await checkScreen(page, { name: 'transfer-detail-delivered', title: /^Transfer …/, mode: 'light' });

  const removed = await page.request.delete(`${baseURL}/api/v1/demo/transfer_configs/${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` },
  });
  expect(removed.status()).toBe(200);
});
