import { apiGet, expect, storageStateOf, test } from './support/fixtures.ts';

/**
 * The licences the screens show are the API's (one counter, docs/decisions.md "Licence use and counts"): the demo
 * admin's Licences screen, the staff console's client view of demo and its clients list show the used and limit
 * numbers `GET licenses` answers, and on the seeded demo a service its onboarded users have is in use (not 0).
 */
interface Usage {
  service: string;
  limit: number;
  used: number;
}
const LABELS: Record<string, string> = { calls: 'Calls', interviews: 'Interviews', gps: 'GPS', photos: 'Photos', mms: 'MMS', rcs: 'RCS', sms: 'SMS', videos: 'Videos' };
const number = (value: number) => value.toLocaleString('en-GB');
const bar = (entry: Usage) => `${LABELS[entry.service] ?? entry.service}: ${number(entry.used)} of ${number(entry.limit)} used`;

let usage: Usage[] = [];

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  try {
    usage = (await apiGet<{ data: Usage[] }>(request, 'demoAdmin', '/api/v1/demo/licenses')).data;
  } finally {
    await request.dispose();
  }
  // The demo's users hold calls licences: a use of 0 is the fault this guards against.
  expect(usage.find((entry) => entry.service === 'calls')?.used ?? 0).toBeGreaterThan(0);
});

test.describe('the tenant', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });
  test('the Licences screen shows the use and limits the API answers', async ({ page }) => {
    await page.goto('/dashboard/account/licenses');
    for (const entry of usage) await expect(page.getByRole('progressbar', { name: bar(entry) })).toBeAttached();
  });
});

test.describe('staff', () => {
  test.use({ storageState: storageStateOf('staff') });
  test('the console shows the same use and limits for demo, and the limits in force in the clients list', async ({ page }) => {
    // The client view of demo holds its one licence card.
    await page.goto('/internal/clients/demo');
    for (const entry of usage) await expect(page.getByRole('progressbar', { name: bar(entry) })).toBeAttached();
    await page.goto('/internal');
    const limits = [...new Set(usage.map((entry) => entry.limit))];
    const words = limits.length === 1 ? `${number(limits[0] ?? 0)} each` : `${number(Math.min(...limits))} to ${number(Math.max(...limits))} by service`;
    const demoRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'demo', exact: true }) });
    await expect(demoRow).toContainText(words);
    await expect(page.getByText('Not set')).toHaveCount(0);
  });
});
