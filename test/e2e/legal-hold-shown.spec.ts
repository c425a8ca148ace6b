import type { APIRequestContext } from '@playwright/test';
import { apiGet, approvePendingChange, checkScreen, expect, savedIdToken, storageStateOf, test } from './support/fixtures.ts';

/**
 * A hold shows where the held thing appears, in a real browser against the local stack: with a legal hold on the demo
 * device user du-dev, their page, their device, their calls in the calls list and a call's own page say they are held,
 * each linking to that hold on the legal holds screen; another person's calls do not. The hold is placed for this spec
 * and released at its end.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const HELD_USER = 'du-dev';
const HOLD_PATH = `/api/v1/demo/account/legal_holds/DeviceUser/${HELD_USER}`;
let call: { payload_reference: string; device_reference: string };

async function holdRequest(request: APIRequestContext, method: 'PUT' | 'DELETE'): Promise<void> {
  const response = await request.fetch(HOLD_PATH, { method, ...(method === 'PUT' ? { data: {} } : {}), headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` } });
  if (!response.ok()) throw new Error(`${method} ${HOLD_PATH} answered ${response.status()}: ${await response.text()}`);
  // A release waits for a second approver (four eyes): the demo's second admin approves it.
  await approvePendingChange(request, response);
}

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  try {
    await holdRequest(request, 'PUT');
    const calls = await apiGet<{ data: Array<{ payload_reference: string; device_reference: string }> }>(
      request,
      'demoAdmin',
      `/api/v1/demo/users/${HELD_USER}/payloads?limit=5&payload_types=Call`,
    );
    const found = calls.data[0];
    if (found === undefined) throw new Error(`the demo has no call of ${HELD_USER}`);
    call = found;
  } finally {
    await request.dispose();
  }
});

test.afterAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  try {
    await holdRequest(request, 'DELETE');
  } finally {
    await request.dispose();
  }
});

const HOLD_HREF = `/dashboard/account/legal-holds?type=DeviceUser&target=${HELD_USER}`;

test.describe('a held user', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  test('their page and their device say they are held and link to the hold', async ({ page }) => {
    await page.goto(`/dashboard/devices/users/${HELD_USER}`);
    const notice = page.getByTestId('legal-hold-notice');
    await expect(notice).toContainText('This device user is under a legal hold');
    await expect(notice.getByRole('link', { name: `The legal hold on device user ${HELD_USER}` })).toHaveAttribute('href', HOLD_HREF);

    await page.goto(`/dashboard/devices/${call.device_reference}`);
    await expect(page.getByTestId('legal-hold-notice')).toContainText('This device is under a legal hold');
  });

  test('their recordings carry the hold, in the list and on the detail, and the link opens the hold', async ({ page }) => {
    await page.goto(`/dashboard/services/calls?device_user_reference=${HELD_USER}`);
    const heldLinks = page.getByRole('link', { name: `Under a legal hold on device user ${HELD_USER}: open the hold` });
    await expect(heldLinks.first()).toBeVisible({ timeout: 30_000 });
    await expect(heldLinks.first()).toHaveAttribute('href', HOLD_HREF);
    await checkScreen(page, { name: 'recordings-held', title: 'Calls', mode: 'light' });

    // Another person's calls carry none.
    await page.goto('/dashboard/services/calls?device_user_reference=du-alice');
    await expect(page.getByRole('table').first().getByRole('row').nth(1)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('legal-hold-badge')).toHaveCount(0);

    await page.goto(`/dashboard/services/calls/${call.payload_reference}`);
    const notice = page.getByTestId('legal-hold-notice');
    await expect(notice).toContainText('This recording is under a legal hold');
    await notice.getByRole('link', { name: `The legal hold on device user ${HELD_USER}` }).click();
    await expect(page).toHaveURL(/\/dashboard\/account\/legal-holds\?/);
    await expect(page.getByText(`Showing the hold on ${HELD_USER}.`)).toBeVisible();
    const holds = page.getByRole('table', { name: 'Legal holds' });
    await expect(holds.getByRole('row').filter({ hasText: HELD_USER })).toContainText('Active');
  });
});
