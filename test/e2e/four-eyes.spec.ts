import type { APIRequestContext } from '@playwright/test';
import { approvePendingChange, expect, savedIdToken, storageStateOf, test } from './support/fixtures.ts';

/**
 * Four eyes in a real browser against the local stack, with the demo's two admins: Dana Admin releases the hold on
 * the demo device user du-chloe from the legal holds screen; the hold stays active, the screen says who asked and
 * offers her no Approve; Jordan Approver, signed in in his own browser, sees the same request with Approve and
 * approves it; the hold is released, and the approvals screen lists the change as approved by him.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const HELD_USER = 'du-chloe';
const HOLD_PATH = `/api/v1/demo/account/legal_holds/DeviceUser/${HELD_USER}`;

async function holdRequest(request: APIRequestContext, method: 'PUT' | 'DELETE'): Promise<void> {
  const response = await request.fetch(HOLD_PATH, { method, ...(method === 'PUT' ? { data: {} } : {}), headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` } });
  if (!response.ok() && response.status() !== 404) throw new Error(`${method} ${HOLD_PATH} answered ${response.status()}: ${await response.text()}`);
  await approvePendingChange(request, response);
}

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  try {
    await holdRequest(request, 'PUT');
  } finally {
    await request.dispose();
  }
});

test('a hold release requested by one admin changes nothing until a second approves it', async ({ browser }) => {
  const dana = await browser.newContext({ storageState: storageStateOf('demoAdmin') });
  const jordan = await browser.newContext({ storageState: storageStateOf('demoApprover') });
  try {
    const page = await dana.newPage();
    await page.goto(`/dashboard/account/legal-holds?type=DeviceUser&target=${HELD_USER}`);
    const holds = page.getByRole('table', { name: 'Legal holds' });
    await holds.getByRole('button', { name: `Release the hold on ${HELD_USER}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Release the legal hold?' });
    await expect(dialog).toContainText('until a second person who may release holds approves the release');
    await dialog.getByRole('button', { name: 'Release hold' }).click();
    await expect(page.getByText(`Release of the hold on device user ${HELD_USER} requested`, { exact: false })).toBeVisible();

    // Still held; the request names Dana; she may withdraw it but not approve it.
    const note = page.getByTestId('pending-change');
    await expect(note).toContainText(/Release requested by Dana Admin \(admin@demo\.test\) on .+, awaiting a second approver\./);
    await expect(note.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await expect(note.getByRole('button', { name: 'Withdraw request' })).toBeVisible();
    await expect(holds.getByRole('row').filter({ hasText: HELD_USER })).toContainText('Release awaiting approval');
    await expect(holds.getByRole('row').filter({ hasText: HELD_USER })).toContainText('Active');

    // Jordan sees the same request where it applies, with Approve, and approves it.
    const other = await jordan.newPage();
    await other.goto(`/dashboard/account/legal-holds?type=DeviceUser&target=${HELD_USER}`);
    const his = other.getByTestId('pending-change');
    await expect(his).toContainText('Release requested by Dana Admin (admin@demo.test)');
    await his.getByRole('button', { name: 'Approve' }).click();
    await expect(other.getByText('Approved: release applied.')).toBeVisible();
    await expect(other.getByTestId('pending-change')).toHaveCount(0);

    await other.goto(`/dashboard/account/legal-holds?show=all&type=DeviceUser&target=${HELD_USER}`);
    const row = other.getByRole('table', { name: 'Legal holds' }).getByRole('row').filter({ hasText: HELD_USER });
    await expect(row).toContainText('Released');
    await expect(row).toContainText('by Jordan Approver (approver@demo.test)');

    await other.goto('/dashboard/account/approvals');
    const change = other.getByRole('table', { name: 'Changes awaiting or given a second approval' }).getByRole('row').filter({ hasText: `Release of the hold on device user ${HELD_USER}` }).first();
    await expect(change).toContainText('Approved');
    await expect(change).toContainText('by Dana Admin (admin@demo.test)');
    await expect(change).toContainText('by Jordan Approver (approver@demo.test)');
  } finally {
    await dana.close();
    await jordan.close();
  }
});
