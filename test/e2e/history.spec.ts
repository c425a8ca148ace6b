import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { apiGet, expect, expectNoSeriousAxeViolations, savedIdToken, SCREENSHOT_DIR, storageStateOf, test } from './support/fixtures.ts';

/**
 * The History panel (record versions, docs/compliance.md SEC 17a-4(f)): a demo recording's comment edited twice
 * through the portal shows, under History, each earlier wording with the words changed marked and who changed it by
 * name; a role edited on its page shows its earlier description beside the new one; a group's tag, a device user's
 * surname and a transfer configuration's root directory and password edited on their screens show their earlier
 * state (a password only as the server's marker, never a value). Against the real local stack: the versions are those
 * the writes kept in their own transactions.
 */

const EDITOR = 'Dana Admin (admin@demo.test)';

interface Listed {
  payload_reference: string;
  payload_type: string;
  is_legacy?: boolean;
}

/** The dialog a "History of …" button opens, and its two tables. */
async function openHistory(page: Page, scope: Page | Locator, name: RegExp) {
  await scope.getByRole('button', { name }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  return { dialog, versions: dialog.getByRole('table', { name: 'Versions' }), comparison: dialog.getByRole('table', { name: 'Comparison' }) };
}

/** The comparison's row of one field (its header cell is the field's label). */
const fieldRow = (comparison: Locator, label: string) => comparison.getByRole('row').filter({ has: comparison.page().getByRole('rowheader', { name: label, exact: true }) });

/** A write on the API as the tenant administrator (test setup and clean-up only; the screens make their own calls). */
async function apiSend(request: APIRequestContext, method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<void> {
  const response = await request.fetch(path, { method, ...(body === undefined ? {} : { data: body }), headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` } });
  if (!response.ok()) throw new Error(`${method} ${path} answered ${response.status()}: ${await response.text()}`);
}

/** A green confirmation carrying the text. */
const notice = (page: Page, text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text });

test.describe('as a tenant administrator', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  test("a comment edited twice: History shows each earlier wording, the words changed marked, and the editor's name", async ({ page, request }) => {
    // Three saves, a dialog and an axe run: more than the default minute on a busy machine.
    test.slow();
    // The first processed SMS (the detail spec comments on the last of each type): a conversation, no waveform to wait for.
    const listed = await apiGet<{ data: Listed[] }>(request, 'demoAdmin', '/api/v1/demo/payloads?limit=100&payload_state=Processed');
    const sms = listed.data.find((row) => row.payload_type === 'SMS' && row.is_legacy !== true);
    if (sms === undefined) throw new Error('the demo holds no processed SMS');
    await page.goto(`/dashboard/services/messages/${sms.payload_reference}`);

    const stamp = `History check ${Date.now()}:`;
    const wordings = [`${stamp} the client agreed to the price`, `${stamp} the client refused the price`, `${stamp} the client refused the price in writing`];
    const form = page.getByRole('form', { name: 'New comment' });
    await form.getByLabel('New comment: text').fill(wordings[0] as string);
    await form.getByRole('button', { name: 'Add comment' }).click();
    const comment = page.getByRole('listitem').filter({ hasText: stamp });
    await expect(comment).toContainText(wordings[0] as string);
    // Never edited: nothing earlier to show, so no History on it.
    await expect(comment.getByRole('button', { name: /^History of comment/ })).toHaveCount(0);

    for (const [index, wording] of wordings.slice(1).entries()) {
      await comment.getByRole('button', { name: /^Edit comment/ }).click();
      const edit = page.getByRole('form', { name: /^Edit comment/ });
      await edit.getByLabel(/^Edit comment \d+: text/).fill(wording);
      await edit.getByRole('button', { name: 'Save comment' }).click();
      await expect(comment).toContainText(`version ${index + 2}`);
    }

    const { versions, comparison } = await openHistory(page, comment, /^History of comment \d+$/);
    // Two earlier versions, newest first, each replaced by the administrator, named as every screen names people.
    const rows = versions.getByRole('row').filter({ hasText: EDITOR });
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('Updated');
    await expect(rows.nth(1)).toContainText('Updated');

    // It opens on the newest change: the second wording beside the comment now, " in writing" marked as added.
    await expect(comparison.getByRole('columnheader', { name: /^Until / })).toBeVisible();
    await expect(comparison.getByRole('columnheader', { name: 'Now', exact: true })).toBeVisible();
    const wording = fieldRow(comparison, 'Wording');
    await expect(wording).toContainText('Changed');
    await expect(wording.locator('[data-side="before"]')).toHaveText(wordings[1] as string);
    await expect(wording.locator('[data-side="after"]')).toHaveText(wordings[2] as string);
    await expect(wording.locator('ins')).toHaveText(/^\s*in writing$/);
    await expect(wording.locator('del')).toHaveCount(0);
    await expect(fieldRow(comparison, 'Version')).toContainText(/2\s*3/);

    // What the first edit did: the first wording beside the second, "agreed to" removed and "refused" added.
    await rows.nth(1).getByRole('button', { name: /with what replaced it$/ }).click();
    await expect(wording.locator('[data-side="before"]')).toHaveText(wordings[0] as string);
    await expect(wording.locator('[data-side="after"]')).toHaveText(wordings[1] as string);
    await expect(wording.locator('del')).toHaveText('agreed to');
    await expect(wording.locator('ins')).toHaveText('refused');
    // The editor is named in the record's own field too, never as a stored reference.
    await expect(fieldRow(comparison, 'Last changed by')).toContainText(EDITOR);
    // Storage keys are never shown.
    await expect(comparison).not.toContainText(/\b(pk|sk|gsi1pk)\b/);

    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'history-comment-light.png'), animations: 'disabled' });
    await expectNoSeriousAxeViolations(page, 'comment history');
  });

  test('a role edited on its page: History shows its earlier description beside the new one', async ({ page, request }) => {
    test.slow();
    const reference = `history-e2e-${Date.now()}`;
    const path = `/api/v1/demo/roles/${reference}`;
    const headers = { authorization: `Bearer ${savedIdToken('demoAdmin')}` };
    const created = await request.put(path, {
      headers,
      data: {
        permissions: [{ actions_matching: 'payloads:List' }],
        alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
        description: 'Lists recordings',
      },
    });
    expect(created.ok(), await created.text()).toBe(true);
    try {
      await page.goto(`/dashboard/access/roles/${reference}`);
      await page.getByRole('textbox', { name: 'Description' }).fill('Lists recordings for the quarterly audit');
      await page.getByRole('button', { name: 'Save role' }).click();
      await expect(page.getByText(`Role ${reference} saved.`)).toBeVisible();

      const { versions, comparison } = await openHistory(page, page, new RegExp(`^History of role ${reference}$`));
      const rows = versions.getByRole('row').filter({ hasText: EDITOR });
      await expect(rows).toHaveCount(1);
      const description = fieldRow(comparison, 'Description');
      await expect(description).toContainText('Changed');
      await expect(description.locator('[data-side="before"]')).toHaveText('Lists recordings');
      await expect(description.locator('ins')).toHaveText(/^\s*for the quarterly audit$/);
      // Fields alike on both sides are not listed until asked for; the rule the edit left alone is among them.
      await expect(fieldRow(comparison, 'Rule 1 › Actions')).toHaveCount(0);
      // The switch's input is visually hidden under its track: a click event on it is what a press on the track sends.
      const showAlike = page.getByRole('switch', { name: 'Show fields that are alike' });
      await showAlike.dispatchEvent('click');
      await expect(showAlike).toBeChecked();
      await expect(fieldRow(comparison, 'Rule 1 › Actions')).toContainText('payloads:List');
    } finally {
      await request.delete(path, { headers });
    }
  });

  test('a group whose tag was changed on the groups screen: History shows the earlier value marked beside the new one', async ({ page, request }) => {
    test.slow();
    const stamp = Date.now();
    const tagKey = `history-desk-${stamp}`;
    const group = `history-group-${stamp}`;
    await apiSend(request, 'PUT', `/api/v1/demo/tags/${tagKey}`, { tag_values: null, is_required: false });
    await apiSend(request, 'PUT', `/api/v1/demo/groups/${group}`, { tags: [{ tag_key: tagKey, tag_value: 'north desk' }] });
    try {
      await page.goto(`/dashboard/access/groups?starts_with=${group}`);
      await page.getByRole('button', { name: `Edit group ${group}` }).click();
      const edit = page.getByRole('dialog', { name: `Edit group ${group}` });
      await edit.getByRole('textbox', { name: 'Tag 1 value' }).fill('south desk');
      await edit.getByRole('button', { name: 'Save group' }).click();
      await expect(notice(page, `Group ${group} saved.`)).toBeVisible();

      // On the group's edit dialog, one History per group.
      await page.getByRole('button', { name: `Edit group ${group}` }).click();
      const { versions, comparison } = await openHistory(page, page.getByRole('dialog', { name: `Edit group ${group}` }), new RegExp(`^History of group ${group}$`));
      await expect(versions.getByRole('row').filter({ hasText: EDITOR })).toHaveCount(1);
      const value = fieldRow(comparison, `Tag › ${tagKey} › Value`);
      await expect(value).toContainText('Changed');
      await expect(value.locator('[data-side="before"]')).toHaveText('north desk');
      await expect(value.locator('[data-side="after"]')).toHaveText('south desk');
      await expect(value.locator('del')).toHaveText('north');
      await expect(value.locator('ins')).toHaveText('south');
      // The group's counters move without an edit: never shown as a change; storage keys never shown.
      await expect(comparison).not.toContainText(/stats|Device users/i);
      await expect(comparison).not.toContainText(/\b(pk|sk|gsi1pk)\b/);
    } finally {
      await apiSend(request, 'DELETE', `/api/v1/demo/groups/${group}`);
      await apiSend(request, 'DELETE', `/api/v1/demo/tags/${tagKey}`);
    }
  });

  test("a device user edited on their page: History shows the earlier surname beside the new one and the editor's name", async ({ page, request }) => {
    test.slow();
    const reference = `history-person-${Date.now()}`;
    const groups = await apiGet<{ data: Array<{ group_reference: string }> }>(request, 'demoAdmin', '/api/v1/demo/groups?limit=1');
    const group = groups.data[0]?.group_reference;
    if (group === undefined) throw new Error('the demo holds no group');
    await apiSend(request, 'POST', `/api/v1/demo/users/${reference}`, {
      group,
      services: ['calls'],
      expected_device_count: 1,
      email: `${reference}@example.test`,
      first_name: 'Ada',
      surname: 'Lovelace',
    });
    try {
      await page.goto(`/dashboard/devices/users/${reference}`);
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const edit = page.getByRole('dialog', { name: 'Edit device user' });
      await edit.getByRole('textbox', { name: 'Surname' }).fill('King');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect(notice(page, 'Ada King saved.')).toBeVisible();

      // Named by the person's name, never their stored key.
      const { versions, comparison } = await openHistory(page, page, /^History of device user Ada King$/);
      await expect(versions.getByRole('row').filter({ hasText: EDITOR })).toHaveCount(1);
      const surname = fieldRow(comparison, 'Surname');
      await expect(surname).toContainText('Changed');
      await expect(surname.locator('del')).toHaveText('Lovelace');
      await expect(surname.locator('ins')).toHaveText('King');
      // Only the surname (and when it was changed) differs: the answer's defaults and the holds the person falls under
      // are not read as changes.
      await expect(fieldRow(comparison, 'Expected devices')).toHaveCount(0);
      await expect(fieldRow(comparison, 'First name')).toHaveCount(0);
      await expect(comparison).not.toContainText(/\b(pk|sk|gsi1pk)\b/);
    } finally {
      await apiSend(request, 'DELETE', `/api/v1/demo/users/${reference}`);
    }
  });

  test('a transfer configuration edited with a new password: History shows the change, the password only as a marker', async ({ page, request }) => {
    test.slow();
    const reference = `history transfer ${Date.now()}`;
    const path = `/api/v1/demo/transfer_configs/${encodeURIComponent(reference)}`;
    const secrets = ['history-first-secret', 'history-second-secret'];
    await apiSend(request, 'POST', path, {
      target_type: 'SFTP',
      transfer_type: 'Payload',
      payload_types: ['Call'],
      schedule: '',
      transfer_file_format: 'Zipped',
      params: { server: 'sftp.example.test', port: 22, root_directory: '/exports', username: 'verity' },
      secured_data: { sftp_password: secrets[0] },
    });
    try {
      await page.goto('/dashboard/account/transfers/config');
      await page.getByRole('button', { name: `Edit ${reference}`, exact: true }).click();
      const edit = page.getByRole('dialog', { name: `Edit ${reference}` });
      await edit.getByRole('textbox', { name: /^Root directory/ }).fill('/exports/quarterly');
      await edit.getByLabel(/sftp password/i).fill(secrets[1] as string);
      await edit.getByRole('button', { name: 'Save configuration' }).click();
      await expect(notice(page, `Transfer configuration ${reference} saved.`)).toBeVisible();

      // The configuration opened from its link: its History on the same dialog.
      await page.goto(`/dashboard/account/transfers/config?config=${encodeURIComponent(reference)}`);
      const shown = page.getByRole('dialog', { name: `Configuration ${reference}` });
      const { dialog, versions, comparison } = await openHistory(page, shown, new RegExp(`^History of transfer configuration ${reference}$`));
      await expect(versions.getByRole('row').filter({ hasText: EDITOR })).toHaveCount(1);
      const root = fieldRow(comparison, 'Target settings › Root directory');
      await expect(root).toContainText('Changed');
      await expect(root.locator('[data-side="before"]')).toHaveText('/exports');
      await expect(root.locator('[data-side="after"]')).toHaveText('/exports/quarterly');
      // The password: what the version holds is the server's marker, the record now says only that one is set.
      const password = fieldRow(comparison, 'SFTP password');
      await expect(password).toContainText('Changed');
      await expect(password.locator('[data-side="before"]')).toHaveText('(kept secret, changed)');
      await expect(password.locator('[data-side="after"]')).toHaveText('(kept secret)');
      // No secret anywhere in the dialog, even with every field shown: neither password, nor its sealed form.
      const showAlike = dialog.getByRole('switch', { name: 'Show fields that are alike' });
      await showAlike.dispatchEvent('click');
      await expect(showAlike).toBeChecked();
      for (const secret of secrets) await expect(dialog).not.toContainText(secret);
      await expect(dialog).not.toContainText(/wrapped|key_id|Key id/i);
    } finally {
      await apiSend(request, 'DELETE', path);
    }
  });
});
