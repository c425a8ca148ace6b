import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { IntegrityCheck } from '#shared/contract/entities/integrity.ts';
import { formatBytes } from '../../web/src/lib/format.ts';
import { apiGet, expect, storageStateOf, test } from './support/fixtures.ts';
import { STACK_ENV_ENV } from './support/env.ts';

/**
 * The audit screen's record-integrity panels in a real browser against the local stack: the `fixity` job run over the
 * demo's stored recordings (in a process of its own, as the daily schedule would), then its figures in the "Stored
 * recordings check" panel; and an export of the portal users' trail started from the "Export the trail" panel, seen
 * through to Completed and downloaded, the file's SHA-256 the one the screen shows.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the fixity job for tenant demo against the test stack, through the jobs handler as the scheduler does. */
function runFixityJob(): void {
  const stackEnv = process.env[STACK_ENV_ENV];
  if (stackEnv === undefined) throw new Error(`${STACK_ENV_ENV} is not set: run through playwright test (global setup)`);
  const script = [
    "import { getDependencies } from '#core/composition.ts';",
    "import { createJobsHandler } from './lambdas/jobs/handler.ts';",
    'const run = createJobsHandler(getDependencies);',
    "await run({ job: 'fixity', input: { client: 'demo' } });",
  ].join('\n');
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, ...(JSON.parse(stackEnv) as Record<string, string>), LOG_LEVEL: 'error' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`the fixity job failed (${result.status}): ${result.stderr}`);
}

/** "28/11/2026": a day as the portal's date inputs take it. */
const typed = (date: Date) => `${String(date.getUTCDate()).padStart(2, '0')}/${String(date.getUTCMonth() + 1).padStart(2, '0')}/${date.getUTCFullYear()}`;

let latest: IntegrityCheck;

test.beforeAll(async ({ playwright, baseURL }) => {
  runFixityJob();
  const request = await playwright.request.newContext({ baseURL });
  try {
    const answer = await apiGet<{ checks: IntegrityCheck[] }>(request, 'demoAdmin', '/api/v1/demo/integrity');
    const found = answer.checks[0];
    if (found === undefined) throw new Error('the fixity job wrote no IntegrityCheck for demo');
    latest = found;
  } finally {
    await request.dispose();
  }
});

test.describe('the audit screen', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  test('shows the last fixity run\'s figures and the cycle\'s progress', async ({ page }) => {
    await page.goto('/dashboard/account/audit');
    const panel = page.getByRole('region', { name: 'Stored recordings check' });
    await expect(panel).toBeVisible({ timeout: 30_000 });
    const counts = [latest.failures_changed, latest.failures_missing, latest.failures_unreadable];
    await expect(panel).toContainText(counts.every((count) => count === 0) ? 'No failures' : 'recording');
    await expect(panel).toContainText(`Recordings checked (present, same version and size)${latest.objects_checked.toLocaleString('en-GB')}`);
    await expect(panel).toContainText(`${latest.cycle_objects_read.toLocaleString('en-GB')} of ${latest.stored_objects.toLocaleString('en-GB')} stored`);
    await expect(panel.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(Math.floor(latest.cycle_progress * 100)));
  });

  test('exports the portal users\' trail of the last two days, and the downloaded file\'s SHA-256 is the one shown', async ({ page }) => {
    await page.goto('/dashboard/account/audit');
    const form = page.getByRole('form', { name: 'Export the trail' });
    await expect(form).toBeVisible({ timeout: 30_000 });
    const now = new Date();
    await form.getByRole('textbox', { name: 'First day' }).fill(typed(new Date(now.getTime() - 24 * 60 * 60_000)));
    await form.getByRole('textbox', { name: 'First day' }).blur();
    await form.getByRole('textbox', { name: 'Last day' }).fill(typed(now));
    await form.getByRole('textbox', { name: 'Last day' }).blur();
    await form.getByRole('button', { name: 'Start the export' }).click();

    const exported = page.getByRole('group', { name: 'The export' });
    await expect(exported.getByText('Completed', { exact: true })).toBeVisible({ timeout: 90_000 });
    await expect(exported.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    const shown = (await exported.getByTestId('export-sha256').innerText()).trim();
    expect(shown).toMatch(/^[0-9a-f]{64}$/);

    const [download] = await Promise.all([page.waitForEvent('download'), exported.getByRole('link', { name: 'Download the file' }).click()]);
    const file = await readFile(await download.path());
    expect(createHash('sha256').update(file).digest('hex')).toBe(shown);
    await expect(exported).toContainText(`Size${formatBytes(file.length)}`);

    await exported.getByRole('button', { name: 'Show the signing key' }).click();
    await expect(exported.getByLabel('The audit signing key (PEM)')).toContainText('-----BEGIN PUBLIC KEY-----');
  });
});
