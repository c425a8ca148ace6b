import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiGet, checkScreen, expect, preferColourMode, savedIdToken, storageStateOf, test, type ColourMode } from './support/fixtures.ts';
import { STACK_ENV_ENV } from './support/env.ts';

/**
 * Retention, legal holds and disposal records in a real browser against the local stack: the policy editor with its
 * preview of what a change makes due, a hold placed and released, a retention run's disposal records in the audit
 * screen, and a deleted recording restored from its page; a reviewer sees none of the buttons. Serial: the run
 * deletes a recording the restore step brings back, and the policy is put back as it was at the end.
 */
// Two minutes a test: the walk with the retention run loads the policy, runs the job and opens three screens.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Listed {
  payload_reference: string;
  payload_type: string;
  payload_state: string;
  device_user_reference?: string;
}

/** A POST or PUT on the API as the tenant administrator (test setup only; the screens make their own calls). */
async function apiSend(request: APIRequestContext, method: 'POST' | 'PUT', path: string, body: unknown): Promise<unknown> {
  const response = await request.fetch(path, { method, data: body, headers: { authorization: `Bearer ${savedIdToken('demoAdmin')}` } });
  if (!response.ok()) throw new Error(`${method} ${path} answered ${response.status()}: ${await response.text()}`);
  return response.json();
}

/**
 * Runs the retention job for tenant demo in a process of its own against the test stack (its environment comes from
 * the global setup), as the daily schedule would, once per input: `{ backfill: true }` indexes the records the demo
 * seed wrote, `{}` is a run.
 */
function runRetentionJob(...inputs: Record<string, unknown>[]): void {
  const stackEnv = process.env[STACK_ENV_ENV];
  if (stackEnv === undefined) throw new Error(`${STACK_ENV_ENV} is not set: run through playwright test (global setup)`);
  const script = [
    "import { getDependencies } from '#core/composition.ts';",
    "import { createJobsHandler } from './lambdas/jobs/handler.ts';",
    'const run = createJobsHandler(getDependencies);',
    `for (const input of ${JSON.stringify(inputs)}) await run({ job: 'retention', input: { client: 'demo', ...input } });`,
  ].join('\n');
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, ...(JSON.parse(stackEnv) as Record<string, string>), LOG_LEVEL: 'error' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`the retention job failed (${result.status}): ${result.stderr}`);
}

/** The policy as the test found it, put back at the end so the other specs' recordings are untouched. */
let originalPolicy: Record<string, unknown> | undefined;
/** The recording the run deletes and the page restores: a processed video whose receipt this spec confirms. */
let video: Listed;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  try {
    originalPolicy = await apiGet<Record<string, unknown>>(request, 'demoAdmin', '/api/v1/demo/account/retention');
    const videos = await apiGet<{ data: Listed[] }>(request, 'demoAdmin', '/api/v1/demo/payloads?limit=100&payload_types=Video&payload_state=Processed');
    // The first one: the recording detail spec takes the last of each type.
    const found = videos.data[0];
    if (found === undefined || videos.data.length < 2) throw new Error('the demo holds fewer than two processed videos');
    video = found;
    await apiSend(request, 'POST', '/api/v1/demo/receipts', { payload_references: [video.payload_reference] });
    // The records the seed wrote before this spec get their due markers, so the preview can count them.
    runRetentionJob({ backfill: true });
  } finally {
    await request.dispose();
  }
});

test.afterAll(async ({ playwright, baseURL }) => {
  if (originalPolicy === undefined) return;
  const request = await playwright.request.newContext({ baseURL });
  try {
    // What GET answers beside the policy (who changed it, the storage's lock facts) is not part of a PUT.
    const { client: _client, updated_by: _by, updated_at: _at, object_lock: _lock, ...body } = originalPolicy;
    await apiSend(request, 'PUT', '/api/v1/demo/account/retention', body);
  } finally {
    await request.dispose();
  }
});

/** The editor row of one recording type. */
const recordingRow = (page: Page, type: string) => page.getByRole('table', { name: 'Retention per recording type' }).locator(`tr[data-payload-type="${type}"]`);

test.describe('as a tenant administrator', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  for (const mode of ['light', 'dark'] as ColourMode[]) {
    test(`retention and legal holds screens (${mode})`, async ({ page }) => {
      await preferColourMode(page, mode);
      await page.goto('/dashboard/account/retention');
      // The first read of the policy can be slow on a busy machine (the backfill has just run).
      await expect(page.getByRole('textbox', { name: 'Alerts: delete after (days)' })).toHaveValue(/\d/, { timeout: 30_000 });
      // The phones' capture ledger entries are a record type of their own, kept as long as calls by default.
      const calls = await recordingRow(page, 'Call').getByRole('textbox', { name: 'Call recordings: delete after (days)' }).inputValue();
      await expect(page.getByRole('textbox', { name: 'Capture ledger entries: delete after (days)' })).toHaveValue(calls);
      await checkScreen(page, { name: 'retention', title: 'Retention', mode });
      await page.goto('/dashboard/account/legal-holds?show=all');
      await checkScreen(page, { name: 'legal-holds', title: 'Legal holds', mode });
      await page.goto('/dashboard/account/audit?trail=disposals');
      await expect(page.getByRole('table', { name: 'Disposal records' })).toBeVisible();
      await checkScreen(page, { name: 'audit-disposals', title: 'Audit', mode });
    });
  }

  test('a period in years and months, refused input beside its field, and a confirmation when a change makes many records due', async ({ page }) => {
    await page.goto('/dashboard/account/retention');
    const alerts = page.getByRole('textbox', { name: 'Alerts: delete after (days)' });
    await alerts.fill('2557');
    await expect(page.getByText('7 years', { exact: true }).first()).toBeVisible();

    // Destroyed before deleted: the server's line lands under the destroy field.
    await page.getByRole('textbox', { name: 'Alerts: destroy after (days)' }).fill('10');
    await page.getByRole('button', { name: 'Review and save' }).click();
    await expect(page.getByText(/Must not be before delete_after_days/)).toBeVisible();
    await page.getByRole('button', { name: 'Undo changes' }).click();

    // Device activity deleted at once: every call the demo phones made becomes due, which asks for a confirmation.
    await page.getByRole('textbox', { name: 'Device activity: delete after (days)' }).fill('0');
    await page.getByRole('button', { name: 'Review and save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Review the retention change' });
    await expect(dialog.getByTestId('retention-preview')).toContainText(/makes (more than )?[\d,]+ more records due for deletion/);
    const save = dialog.getByRole('button', { name: 'Save policy' });
    await expect(save).toBeDisabled();
    await dialog.getByRole('checkbox', { name: /I understand that/ }).check();
    await expect(save).toBeEnabled();
    await checkScreen(page, { name: 'retention-review-large', title: 'Retention', mode: 'light' });
    // Not saved: back to editing, then the edit undone.
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await page.getByRole('button', { name: 'Undo changes' }).click();
    await expect(page.getByText('No changes.')).toBeVisible();
  });

  test('edit a policy, see how many records it makes due, save; the run deletes; the disposal record shows; restore the recording', async ({ page }) => {
    await page.goto('/dashboard/account/retention');
    const row = recordingRow(page, 'Video');
    await row.getByRole('combobox', { name: 'Video recordings: counted from' }).click();
    await page.getByRole('option', { name: 'Receipt confirmed' }).click();
    await row.getByRole('textbox', { name: 'Video recordings: delete after (days)' }).fill('0');
    await expect(page.getByText('2 changes not saved.')).toBeVisible();
    await page.getByRole('button', { name: 'Review and save' }).click();

    const dialog = page.getByRole('dialog', { name: 'Review the retention change' });
    await expect(dialog.getByText(/Payload data: Video, counted from: Recorded → Receipt confirmed/)).toBeVisible();
    // The video whose receipt was confirmed is due at once.
    await expect(dialog.getByTestId('retention-preview')).toContainText(/makes [1-9][\d,]* more records due for deletion/);
    await expect(dialog.getByRole('table', { name: 'Records due at the next run' }).getByRole('row', { name: /Recordings: Video/ })).toBeVisible();
    await expect(dialog.getByText('Existing recordings keep their lock')).toBeVisible();
    await dialog.getByRole('button', { name: 'Save policy' }).click();
    // Deleting videos sooner shortens their life: it waits for a second approver (four eyes), who approves it here.
    await expect(page.getByText('Shorter retention requested', { exact: false })).toBeVisible();
    const note = page.getByTestId('pending-change');
    await expect(note).toContainText('Shorter retention requested by Dana Admin (admin@demo.test)');
    await expect(note.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    const pending = await apiGet<{ data: Array<{ approval_reference: string }> }>(page.request, 'demoAdmin', '/api/v1/demo/approvals?status=Pending');
    const approved = await page.request.post(`/api/v1/demo/approvals/${pending.data[0]?.approval_reference}/approve`, {
      headers: { authorization: `Bearer ${savedIdToken('demoApprover')}` },
    });
    expect(approved.status()).toBe(200);
    await page.reload();
    await expect(recordingRow(page, 'Video').getByRole('textbox', { name: 'Video recordings: delete after (days)' })).toHaveValue('0 days');

    runRetentionJob({});

    await page.goto('/dashboard/account/audit?trail=disposals&record_type=PayloadData&disposal=Deleted');
    const records = page.getByRole('table', { name: 'Disposal records' });
    const record = records.getByRole('row').filter({ hasText: video.payload_reference });
    await expect(record).toBeVisible();
    await expect(record).toContainText('Recordings: Video');
    await expect(record).toContainText('delete after 0 days');
    await checkScreen(page, { name: 'audit-disposals-filtered', title: 'Audit', mode: 'light' });

    await record.getByRole('link', { name: video.payload_reference }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Video · /);
    await expect(page.getByText('This recording is deleted')).toBeVisible();
    await checkScreen(page, { name: 'recording-deleted', title: /^Video · /, mode: 'light' });
    await page.getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByText('Recording restored')).toBeVisible();
    await expect(page.getByText('This recording is deleted')).toHaveCount(0);
  });

  // Releasing an active hold waits for a second person (four eyes): the demo's second admin, Jordan Approver, signed in
  // in a browser of his own, approves each release where it applies, as test/e2e/four-eyes.spec.ts does.
  test('place a hold on a device user, see what it covers, release it with a confirmation', async ({ page, browser }) => {
    // Two holds, each released through a second browser's approval: more than the describe's two minutes on a busy machine.
    test.slow();
    const jordan = await browser.newContext({ storageState: storageStateOf('demoApprover') });
    try {
      const approver = await jordan.newPage();
      /** Jordan approves the release Dana asked for on the hold of `target`, on the holds screen. */
      const approveRelease = async (target: string) => {
        await approver.goto(`/dashboard/account/legal-holds?target=${encodeURIComponent(target)}`);
        const request = approver.getByTestId('pending-change');
        await expect(request).toContainText('Release requested by Dana Admin (admin@demo.test)');
        await request.getByRole('button', { name: 'Approve' }).click();
        await expect(approver.getByText('Approved: release applied.')).toBeVisible();
      };

      await page.goto('/dashboard/account/legal-holds');
      await page.getByRole('button', { name: 'Place a hold' }).click();
      const form = page.getByRole('form', { name: 'Place a legal hold' });
      await form.getByRole('combobox', { name: 'Device user' }).fill('bram');
      await page.getByRole('option', { name: /du-bram/ }).click();
      await form.getByRole('button', { name: 'Place hold' }).click();
      await expect(page.getByText('Legal hold placed on device user du-bram.')).toBeVisible();

      const holds = page.getByRole('table', { name: 'Legal holds' });
      const held = holds.getByRole('row').filter({ hasText: 'du-bram' });
      await expect(held).toContainText('Active');
      // What it covers, counted: the recordings and devices of Bram's phone; its recordings' storage locks set.
      await expect(held).toContainText(/\d+ recordings?/);
      await expect(held).toContainText(/1 device/);
      await expect(held).toContainText('Recordings locked');
      await expect(held.getByRole('link', { name: 'du-bram' })).toHaveAttribute('href', '/dashboard/devices/users/du-bram');
      await checkScreen(page, { name: 'legal-holds-active', title: 'Legal holds', mode: 'light' });

      await held.getByRole('button', { name: 'Release the hold on du-bram' }).click();
      const dialog = page.getByRole('dialog', { name: 'Release the legal hold?' });
      await expect(dialog).toContainText('disposable again');
      await expect(dialog).toContainText('This hold covers');
      await expect(dialog.getByRole('listitem').filter({ hasText: /recordings?$/ })).toBeVisible();
      await dialog.getByRole('button', { name: 'Release hold' }).click();
      // Asked for, not done: the hold stays active until the second admin approves.
      await expect(page.getByText('Release of the hold on device user du-bram requested', { exact: false })).toBeVisible();
      await expect(held).toContainText('Release awaiting approval');
      await expect(held).toContainText('Active');

      await approveRelease('du-bram');
      await page.goto('/dashboard/account/legal-holds');
      await expect(holds.getByRole('row').filter({ hasText: 'du-bram' })).toHaveCount(0);
      await page.goto('/dashboard/account/legal-holds?show=all');
      const released = page.getByRole('table', { name: 'Legal holds' }).getByRole('row').filter({ hasText: 'du-bram' });
      await expect(released).toContainText('Released');
      await expect(released).toContainText('by Jordan Approver (approver@demo.test)');

      // The hold's History: the active hold the release replaced, beside the hold now released.
      await released.getByRole('button', { name: 'History of the hold on device user du-bram' }).click();
      const history = page.getByRole('dialog', { name: 'History of the hold on device user du-bram' });
      const comparison = history.getByRole('table', { name: 'Comparison' });
      const active = comparison.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Active', exact: true }) });
      await expect(active).toContainText('Changed');
      await expect(active.locator('[data-side="before"]')).toHaveText('Yes');
      await expect(active.locator('[data-side="after"]')).toHaveText('No');
      await history.getByRole('button', { name: 'Close' }).click();

      // A portal user, picked from the people the audit trail has seen: what they wrote is held, counted.
      await page.getByRole('button', { name: 'Place a hold' }).click();
      await form.getByText('A portal user', { exact: true }).click();
      await form.getByRole('combobox', { name: 'Portal user reference' }).fill('demo-ad');
      await page.getByRole('option', { name: 'demo-admin' }).click();
      await form.getByRole('button', { name: 'Place hold' }).click();
      await expect(page.getByText('Legal hold placed on portal user demo-admin.')).toBeVisible();
      const person = page.getByRole('table', { name: 'Legal holds' }).getByRole('row').filter({ hasText: 'demo-admin' }).filter({ hasText: 'Active' });
      await expect(person).toContainText(/\d+ activity records?/);
      await expect(person.getByRole('link', { name: /^demo-admin/ })).toHaveAttribute('href', /\/dashboard\/account\/audit\?.*user_id=demo-admin/);
      // Their trail, the portal's page for a portal user, says they are held and links back to the hold.
      await person.getByRole('link', { name: /^demo-admin/ }).click();
      await expect(page.getByTestId('legal-hold-notice')).toContainText("This person's activity is under a legal hold");
      await expect(page.getByRole('link', { name: 'The legal hold on portal user demo-admin' })).toBeVisible();
      await page.goBack();
      await person.getByRole('button', { name: 'Release the hold on demo-admin' }).click();
      await page.getByRole('dialog', { name: 'Release the legal hold?' }).getByRole('button', { name: 'Release hold' }).click();
      await expect(page.getByText('Release of the hold on portal user demo-admin requested', { exact: false })).toBeVisible();
      await approveRelease('demo-admin');
      await page.goto('/dashboard/account/legal-holds?show=all&target=demo-admin');
      await expect(page.getByRole('table', { name: 'Legal holds' }).getByRole('row').filter({ hasText: 'demo-admin' })).toContainText('Released');
    } finally {
      await jordan.close();
    }
  });
});

test.describe('as a reviewer (reads, changes nothing)', () => {
  test.use({ storageState: storageStateOf('demoReviewer') });

  test('sees the policy and the holds but no button to edit, place or release', async ({ page }) => {
    await page.goto('/dashboard/account/retention');
    await expect(page.getByRole('textbox', { name: 'Alerts: delete after (days)' })).toHaveAttribute('readonly', '', { timeout: 30_000 });
    await expect(page.getByText('Your roles allow reading this policy, not changing it.', { exact: false })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Review and save' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Undo changes' })).toHaveCount(0);

    await page.goto('/dashboard/account/legal-holds?show=all');
    await expect(page.getByRole('table', { name: 'Legal holds' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Place a hold' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Release/ })).toHaveCount(0);
    await checkScreen(page, { name: 'legal-holds-reviewer', title: 'Legal holds', mode: 'light' });
  });
});
