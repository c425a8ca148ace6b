import type { APIRequestContext } from '@playwright/test';
import { apiGet, checkScreen, expect, savedIdToken, storageStateOf, test } from './support/fixtures.ts';

/**
 * Erasure requests (GDPR Art 17) in a real browser against the local stack, with the demo's two admins. Dana Admin
 * records a request for a person of her own making (an offboarded device user created for this walk, so the demo
 * fleet stays as the other specs expect it), picked by name; the decision job runs and the page follows it to
 * Decided; she is offered no review, and the page says why. Jordan Approver, in his own browser, approves it with a
 * reason; the erasure runs to Completed, and the report for the person lists, kind by kind, what was erased and what
 * is kept, under which exception and until when, with the same totals the API answers. Axe on each screen.
 */
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const STAMP = Date.now().toString(36);
const PERSON = `erasure-${STAMP}`;
const FIRST_NAME = 'Robin';
const SURNAME = `Rowe ${STAMP}`;
const NAME = `${FIRST_NAME} ${SURNAME}`;

interface ErasureRequestAnswer {
  erasure_state: string;
  outcomes: { kind: string; found: number; erased: number; kept: { count: number; article: string }[] }[];
}

/** A write on the API as the tenant administrator (setup only; the screens make their own calls). */
async function apiSend(request: APIRequestContext, method: 'POST' | 'PUT', path: string, body: unknown): Promise<void> {
  const response = await request.fetch(path, { method, data: body, headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` } });
  if (!response.ok()) throw new Error(`${method} ${path} answered ${response.status()}: ${await response.text()}`);
}

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  try {
    const groups = await apiGet<{ data: Array<{ group_reference: string }> }>(request, 'demoAdmin', '/api/v1/demo/groups?limit=1');
    const group = groups.data[0]?.group_reference;
    if (group === undefined) throw new Error('the demo holds no group');
    const person = { group, services: ['calls'], expected_device_count: 1, email: `${PERSON}@example.test`, first_name: FIRST_NAME, surname: SURNAME };
    await apiSend(request, 'POST', `/api/v1/demo/users/${PERSON}`, person);
    // Offboarded: an active person's record is kept while they hold a device, whatever they ask.
    await apiSend(request, 'PUT', `/api/v1/demo/users/${PERSON}`, { ...person, is_active: false });
  } finally {
    await request.dispose();
  }
});

test('an erasure request recorded by one admin is decided, reviewed by a second, erased and reported', async ({ browser }) => {
  const dana = await browser.newContext({ storageState: storageStateOf('demoAdmin') });
  const jordan = await browser.newContext({ storageState: storageStateOf('demoApprover') });
  try {
    const page = await dana.newPage();
    await page.goto('/dashboard');
    await page.getByRole('navigation').getByRole('link', { name: 'Erasure requests', exact: true }).click();
    await checkScreen(page, { name: 'erasure-requests', title: 'Erasure requests', mode: 'light' });

    // Recorded with the person picked by name; a representative asked, by letter.
    await page.getByRole('button', { name: 'Record a request' }).click();
    const form = page.getByRole('form', { name: 'Record an erasure request' });
    await expect(form).toBeVisible();
    // Nothing chosen: each missing field says so under itself, before any call.
    await form.getByRole('button', { name: 'Record request' }).click();
    await expect(form.getByText('Choose the person the request is about')).toBeVisible();
    await expect(form.getByText('Choose how the request was received')).toBeVisible();
    await form.getByRole('combobox', { name: 'Person' }).fill(PERSON);
    await page.getByRole('option', { name: `${NAME} (${PERSON}), offboarded` }).click();
    await form.getByText('A representative', { exact: true }).click();
    await form.getByRole('textbox', { name: "Representative's name" }).fill('Sam Lee, solicitor');
    await form.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: 'Letter' }).click();
    await form.getByRole('textbox', { name: 'Note' }).fill('Letter of 20 November, filed under GDPR requests.');
    await form.getByRole('button', { name: 'Record request' }).click();

    // The request's page follows the decision job to Decided.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Erasure request: ${NAME} (${PERSON})`);
    const url = page.url();
    await expect(page.getByText('Decided: awaiting review').first()).toBeVisible({ timeout: 90_000 });
    await expect(page.getByRole('heading', { name: `Decision for ${NAME} (${PERSON})` })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Records about the person, by kind' })).toContainText('Personal details');

    // Four eyes: no review offered to the person who recorded it, and a sentence why.
    const review = page.getByTestId('erasure-review');
    await expect(review).toContainText('You recorded this request, so you cannot review it');
    await expect(page.getByRole('button', { name: 'Approve and erase' })).toHaveCount(0);
    await checkScreen(page, { name: 'erasure-request-decided', title: `Erasure request: ${NAME} (${PERSON})`, mode: 'light' });

    // The list shows it by the person's name, with who asked and how.
    await page.getByRole('navigation').getByRole('link', { name: 'Erasure requests', exact: true }).click();
    const row = page.getByRole('table', { name: 'Erasure requests' }).getByRole('row').filter({ hasText: NAME });
    await expect(row).toContainText('A representative: Sam Lee, solicitor');
    await expect(row).toContainText('Letter');
    await expect(row).toContainText('by Dana Admin (admin@demo.test)');

    // Jordan, a second admin, approves with a reason; the erasure runs to Completed.
    const other = await jordan.newPage();
    await other.goto(url);
    const his = other.getByTestId('erasure-review');
    await his.getByRole('button', { name: 'Approve and erase' }).click();
    await expect(his.getByText('Give the reason for your decision')).toBeVisible();
    await his.getByRole('textbox', { name: 'Reason' }).fill('Checked against the letter and the retention rules.');
    await his.getByRole('button', { name: 'Approve and erase' }).click();
    await expect(other.getByText('Completed', { exact: true }).first()).toBeVisible({ timeout: 90_000 });

    // The report for the person: each kind, what was erased and what is kept, under which exception and until when.
    await expect(other.getByRole('heading', { name: `Erasure report for ${NAME} (${PERSON})` })).toBeVisible();
    const report = other.getByRole('table', { name: 'Records about the person, by kind' });
    await expect(report.getByRole('columnheader', { name: 'Erased' })).toBeVisible();
    await expect(report.getByRole('columnheader', { name: 'Kept, why, and until when' })).toBeVisible();
    await expect(other.getByText(/Approved .+ by Jordan Approver \(approver@demo\.test\): “Checked against the letter and the retention rules\.”/)).toBeVisible();
    await expect(other.getByRole('img', { name: /Erased and kept, by kind of record/ })).toBeVisible();

    // The screen's totals are the API's own.
    const reference = url.split('/').pop() ?? '';
    const answer = await apiGet<ErasureRequestAnswer>(other.request, 'demoApprover', `/api/v1/demo/account/erasure_requests/${reference}`);
    expect(answer.erasure_state).toBe('Completed');
    const erased = answer.outcomes.reduce((sum, outcome) => sum + outcome.erased, 0);
    const kept = answer.outcomes.reduce((sum, outcome) => sum + outcome.kept.reduce((total, entry) => total + entry.count, 0), 0);
    const totals = `${erased} ${erased === 1 ? 'record was' : 'records were'} erased and ${kept} ${kept === 1 ? 'is' : 'are'} kept`;
    await expect(other.getByText(totals, { exact: false })).toBeVisible();
    for (const outcome of answer.outcomes.filter((entry) => entry.kept.length > 0)) {
      for (const entry of outcome.kept) await expect(report).toContainText(`${entry.count} kept`);
      await expect(report).toContainText(`GDPR Art ${outcome.kept[0]?.article ?? ''}`);
    }
    await checkScreen(other, { name: 'erasure-request-completed', title: `Erasure request: ${NAME} (${PERSON})`, mode: 'light' });
  } finally {
    await dana.close();
    await jordan.close();
  }
});
