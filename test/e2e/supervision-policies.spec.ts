import { randomBytes } from 'node:crypto';
import { checkScreen, errorNotifications, expect, storageStateOf, test } from './support/fixtures.ts';

/**
 * The supervision policies and reports screens in a real browser against the local stack: a lexicon policy written in
 * the editor (a refused term shown on its line as it is typed), its terms tried in the term tester with the demo's
 * ignore policy in force, created, listed with its scope in words, and deleted; the three reports with their CSV
 * export. Serial: one policy runs through the walk.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

/** A word no demo message holds; letters only, so the policy reference is a valid one. */
const TERM = `zephyr${randomBytes(4).toString('hex').replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] ?? 'a')}`;
const POLICY = `e2e-${TERM}`;

test.describe('supervision policies and reports', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  test('writes a lexicon policy with its terms checked line by line and tried in the tester, then deletes it', async ({ page }) => {
    await page.goto('/dashboard/supervision/policies/create');
    await expect(page.getByRole('heading', { level: 1, name: 'Create supervision policy' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Policy name' }).fill(POLICY);
    const terms = page.getByRole('textbox', { name: /^Terms/ });
    await terms.fill(`${TERM}\n(a OR b)\n${TERM.toUpperCase()}`);
    const problems = page.getByTestId('term-line-problems');
    await expect(problems).toContainText('Line 2 (“(a OR b)”): Must not use parentheses');
    await expect(problems).toContainText('Line 3');
    await expect(problems).toContainText('Repeats line 1');
    await terms.fill(`${TERM}\noff the record`);
    await expect(problems).toHaveCount(0);

    await page.getByRole('textbox', { name: 'Sample text' }).fill(`I ${TERM.toUpperCase()} this, strictly off-the-record.`);
    const result = page.getByTestId('term-tester-result');
    await expect(result.locator('mark[data-kind="hit"]')).toHaveText([TERM.toUpperCase(), 'off-the-record']);
    await expect(page.getByText('2 matches raise an item.')).toBeVisible();
    await checkScreen(page, { name: 'supervision-policy-create', title: 'Create supervision policy', mode: 'light' });

    await page.getByRole('button', { name: 'Create policy' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Policy ${POLICY}` })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Apply to a past period' })).toBeVisible();

    await page.goto('/dashboard/supervision/policies');
    const row = page.getByRole('row').filter({ hasText: POLICY });
    await expect(row).toContainText('2 terms');
    await expect(row).toContainText('of everyone recorded');
    await expect(errorNotifications(page)).toHaveCount(0);

    await row.getByRole('link', { name: POLICY }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Policy ${POLICY}` })).toBeVisible();
    await page.getByRole('button', { name: 'Delete policy' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Supervision policies' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: POLICY })).toHaveCount(0);
  });

  test('shows the three reports over a period in the URL, each table with its CSV export', async ({ page }) => {
    await page.goto('/dashboard/supervision/reports?from=2020-01-01');
    await expect(page.getByRole('heading', { level: 1, name: 'Supervision reports' })).toBeVisible();
    await expect(page.getByTestId('report-period')).toHaveText('Items not closed now, raised from 1 Jan 2020 on (UTC days, both ends included).');
    await expect(page.getByRole('table', { name: 'Outstanding items per person and policy' })).toBeVisible();
    await checkScreen(page, { name: 'supervision-reports', title: 'Supervision reports', mode: 'light' });
    await page.getByRole('tab', { name: 'Outcomes' }).click();
    await expect(page.getByRole('table', { name: 'Outcomes per policy' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Outcomes per term' })).toBeVisible();
    await page.getByRole('tab', { name: 'Reviewers' }).click();
    await expect(page.getByRole('table', { name: 'Reviewers' })).toBeVisible();
    await expect(page.getByTestId('report-period')).toHaveText('Items closed from 1 Jan 2020 on (UTC days, both ends included).');
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeVisible();
    await expect(errorNotifications(page)).toHaveCount(0);
  });
});
