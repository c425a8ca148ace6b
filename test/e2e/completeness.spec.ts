import { readCsvDownload } from './support/csv.ts';
import { apiGet, checkScreen, errorNotifications, expect, expectNoSeriousAxeViolations, preferColourMode, settle, storageStateOf, test, type ColourMode } from './support/fixtures.ts';

/**
 * Capture completeness in a real browser against the local stack, on the demo's phone with gaps
 * (scripts/local/seed/completeness.ts): Chloe Carter's phone saw an outgoing call to +447700900311 and an incoming one
 * from +447700900317 that no recording captured (`Missing`). The walk goes from the tenant's share complete to the
 * people with gaps first, opens Chloe's missing count and finds the call with its number, direction and time; the calls
 * list shows the same call where its recording would have been; her page's panel downloads her ledger.
 */
const API = '/api/v1/demo';
const PERSON = 'Chloe Carter';
const MISSING_NUMBERS = /\+?44\s?7700\s?900\s?31[17]|07700\s?90031[17]/;
/** The report's first read waits for the local stack's first answers. */
const FIRST_LOAD = { timeout: 30_000 };

interface Entry {
  outcome: string;
  phone_number?: string;
  device_user_reference?: string;
  start_time: string;
}

test.describe('capture completeness as admin@demo.test', () => {
  // The walk reads the report, its entries, a CSV and axe: on a busy two-core machine that outlasts the 60 s default.
  test.describe.configure({ timeout: 180_000 });
  test.use({ storageState: storageStateOf('demoAdmin') });

  for (const mode of ['light', 'dark'] as ColourMode[]) {
    test(`the report in ${mode} mode: its share, chart and gaps without an error or an axe violation`, async ({ page }) => {
      await preferColourMode(page, mode);
      await page.goto('/dashboard/services/completeness');
      await expect(page.getByTestId('completeness-share')).toBeVisible(FIRST_LOAD);
      await expect(page.getByRole('table', { name: 'People with gaps' }).locator('tbody tr').first()).toBeVisible(FIRST_LOAD);
      await checkScreen(page, { name: 'completeness', title: 'Capture completeness', mode });
    });
  }

  test('walks from the tenant’s share to one missing call behind a person’s count', async ({ page, request }) => {
    // What the server holds: the missing calls the seed made on the phone with gaps (the test reads the same ones).
    const missing = await apiGet<{ data: Entry[] }>(request, 'demoAdmin', `${API}/completeness/entries?outcome=Missing&payload_type=Call&limit=100`);
    const chloeMissing = missing.data.filter((entry) => MISSING_NUMBERS.test(entry.phone_number ?? ''));
    expect(chloeMissing.length, 'the demo seed’s missing calls').toBeGreaterThanOrEqual(2);

    await page.goto('/dashboard/services/completeness');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Capture completeness');
    await expect(page.getByTestId('completeness-period')).toContainText('UTC days, both included');
    // The tenant's share over the period, and the share per day as a chart with its table.
    await expect(page.getByTestId('completeness-share')).toHaveText(/^\d{1,3}\.\d %$/, FIRST_LOAD);
    await expect(page.getByRole('heading', { name: /^Share complete per day/ })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Completeness per day' })).toBeVisible();

    // People with gaps first: Chloe's day(s) with missing calls, each count a link to its entries.
    const people = page.getByRole('table', { name: 'People with gaps' });
    const count = people.getByRole('link', { name: new RegExp(`^\\d+ missing of ${PERSON} on .*: show the entries$`) }).first();
    await expect(count).toBeVisible(FIRST_LOAD);
    const shown = Number(await count.textContent());
    expect(shown).toBeGreaterThanOrEqual(1);
    await count.click();

    await expect(page).toHaveURL(/outcome=Missing/);
    await expect(page).toHaveURL(/device_user_reference=/);
    const entries = page.getByRole('table', { name: new RegExp(`^Missing entries of ${PERSON} on `) });
    await expect(entries).toBeVisible();
    const rows = entries.locator('tbody tr');
    // Exactly the count opened: every one of them Missing, none recorded.
    await expect(rows).toHaveCount(shown);
    const call = rows.filter({ hasText: MISSING_NUMBERS }).first();
    await expect(call).toBeVisible();
    await expect(call.getByTestId('completeness-outcome')).toHaveText('Missing');
    await expect(call).toContainText(/Outgoing|Incoming/);
    await expect(call).toContainText(/\d{1,2} \w{3} \d{4}, \d{2}:\d{2}/);
    await expect(call).toContainText('Not recorded');

    // The entries shown export as CSV with the same rows.
    const downloading = page.waitForEvent('download');
    await page.locator('#completeness-entries-section').getByRole('button', { name: 'Export CSV' }).click();
    const csv = readCsvDownload(await (await downloading).path());
    expect(csv[0]?.slice(0, 6)).toEqual(['Time', 'Type', 'Direction', 'Number', 'Call length', 'Outcome']);
    expect(csv.slice(1).filter((line) => line.length > 1)).toHaveLength(shown);
    expect(csv.slice(1).every((line) => line[5] === 'Missing')).toBe(true);

    await settle(page);
    await expect(errorNotifications(page)).toHaveCount(0);
    await expectNoSeriousAxeViolations(page, 'completeness report with entries');
  });

  test('the calls list shows a missing call where its recording would have been, not as a recording', async ({ page, request }) => {
    const missing = await apiGet<{ data: Entry[] }>(request, 'demoAdmin', `${API}/completeness/entries?outcome=Missing&payload_type=Call&limit=100`);
    const call = missing.data.find((entry) => MISSING_NUMBERS.test(entry.phone_number ?? '') && entry.device_user_reference !== undefined);
    expect(call, 'a missing call of the demo seed').toBeDefined();
    await page.goto(`/dashboard/services/calls?device_user_reference=${call?.device_user_reference ?? ''}`);
    const table = page.getByRole('table', { name: 'Calls' });
    const gap = table.getByTestId('gap-row').filter({ hasText: MISSING_NUMBERS }).first();
    await expect(gap).toBeVisible(FIRST_LOAD);
    await expect(gap).toContainText('Not recorded');
    await expect(gap).toContainText(/Missing call: .*, (outgoing|incoming), .*not recorded/);
    await expect(page.getByText(/^\d+ shown, and \d+ not recorded/)).toBeVisible();
    // Not a recording: no checkbox, no link to a recording page in its row.
    const row = table.locator('tbody tr[data-span-row]').filter({ hasText: MISSING_NUMBERS }).first();
    await expect(row.getByRole('checkbox')).toHaveCount(0);
    await expect(row.getByRole('link')).toHaveCount(0);
  });

  test('the person’s page shows their completeness and downloads their ledger', async ({ page, request }) => {
    const missing = await apiGet<{ data: Entry[] }>(request, 'demoAdmin', `${API}/completeness/entries?outcome=Missing&payload_type=Call&limit=100`);
    const reference = missing.data.find((entry) => MISSING_NUMBERS.test(entry.phone_number ?? ''))?.device_user_reference;
    expect(reference, 'the person with the missing calls').toBeDefined();
    await page.goto(`/dashboard/devices/users/${reference ?? ''}`);
    const panel = page.getByTestId('completeness-panel');
    await expect(panel).toBeVisible(FIRST_LOAD);
    await expect(panel.getByRole('table', { name: `Capture completeness per day of ${PERSON}` })).toBeVisible(FIRST_LOAD);
    const downloading = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download ledger (CSV)' }).click();
    const csv = readCsvDownload(await (await downloading).path());
    const outcomes = csv.slice(1).map((line) => line[6]);
    expect(outcomes).toContain('Missing');
    expect(csv.slice(1).some((line) => MISSING_NUMBERS.test(line[3] ?? ''))).toBe(true);
  });
});
