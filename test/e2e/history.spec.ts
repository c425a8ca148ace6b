import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { apiGet, expect, expectNoSeriousAxeViolations, savedIdToken, SCREENSHOT_DIR, storageStateOf, test } from './support/fixtures.ts';

/**
 * The History panel (record versions, docs/compliance.md SEC 17a-4(f)): a demo recording's comment edited twice
 * through the portal shows, under History, each earlier wording with the words changed marked and who changed it by
 * name; a role edited on its page shows its earlier description beside the new one. Against the real local stack: the
 * versions are those the comment and role writes kept in their own transactions.
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
});
