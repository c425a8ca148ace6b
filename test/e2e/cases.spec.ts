import { checkScreen, expect, storageStateOf, test } from './support/fixtures.ts';

/**
 * Cases in a real browser against the local stack: the demo admin opens a case from /dashboard/cases with a demo
 * custodian picked by name (Erin Evans, du-erin), lands on its page (custodian, period, types, team) and finds it in
 * the list; the demo reviewer, whose role may list cases but who is not on the team, does not see it. No hold is
 * placed (collect and hold off), so the demo fleet stays as other specs expect it.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const TITLE = `E2E case ${Date.now().toString(36)}`;

test.describe('a case of the demo admin', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  test('opens a case with a custodian picked by name and sees it', async ({ page }) => {
    await page.goto('/dashboard');
    await page.getByRole('navigation').getByRole('link', { name: 'Cases', exact: true }).click();
    await checkScreen(page, { name: 'cases', title: 'Cases', mode: 'light' });
    await page.getByRole('button', { name: 'New case' }).click();

    const form = page.getByRole('form', { name: 'New case' });
    await form.getByLabel('Title').fill(TITLE);
    await form.getByRole('combobox', { name: 'Custodian device users' }).fill('Erin');
    await page.getByRole('option', { name: /Erin Evans \(du-erin\)/ }).click();
    // Typed the British way; leaving the field (Tab) reads it, as a person's typing is read.
    await form.getByRole('textbox', { name: 'Period from' }).fill('01/03/2026');
    await form.getByRole('textbox', { name: 'Period from' }).press('Tab');
    await form.getByRole('textbox', { name: 'Period to' }).fill('31/05/2026');
    await form.getByRole('textbox', { name: 'Period to' }).press('Tab');
    // The switch's input lies over its label: it is what takes the click.
    await form.getByRole('switch', { name: /Collect and hold/ }).uncheck();
    await expect(form.getByRole('switch', { name: /Collect and hold/ })).not.toBeChecked();
    await form.getByRole('button', { name: 'Open case' }).click();

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TITLE);
    await expect(page.getByRole('list', { name: 'Custodian device users' }).getByRole('link', { name: 'du-erin' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Case team' })).toContainText('Dana Admin');
    await expect(page.getByText('1 Mar 2026 – 31 May 2026')).toBeVisible();
    await expect(page.getByText('The case placed no legal hold.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close case' })).toBeVisible();

    await page.getByRole('navigation').getByRole('link', { name: 'Cases', exact: true }).click();
    await expect(page.getByRole('table', { name: 'Cases' }).getByRole('link', { name: TITLE })).toBeVisible();
  });
});

test.describe('someone outside the team', () => {
  test.use({ storageState: storageStateOf('demoReviewer') });

  test('does not see the case in the list', async ({ page }) => {
    await page.goto('/dashboard/cases');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cases');
    // The list opens on Open cases, where the case just opened would be.
    await expect(page.getByText('No case of yours.')).toBeVisible();
    await expect(page.getByRole('link', { name: TITLE })).toHaveCount(0);
    // No "New case" button for a role that may not open one.
    await expect(page.getByRole('button', { name: 'New case' })).toHaveCount(0);
  });
});
