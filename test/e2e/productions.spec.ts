import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Download, Locator, Page } from '@playwright/test';
import { checkScreen, errorNotifications, expect, expectNoSeriousAxeViolations, settle, storageStateOf, test } from './support/fixtures.ts';

/**
 * Productions in a real browser against the local stack (docs/productions.md). Dana Admin produces the demo case
 * ("Demo: Q2 rates desk enquiry": du-alice and du-bram with the numbers their demo calls and messages name) as a
 * download, watches it run to Succeeded, downloads it through the browser and opens the zip with 7-Zip: its manifest
 * lists every file with its SHA-256 (checked here) and a native per control number. The production log shows the row
 * with its control numbers and her name. Then a client copy and a search from /dashboard/productions' form, with its
 * refusals shown under the fields. The demo reviewer is offered no "New production".
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const DEMO_CASE = 'Demo: Q2 rates desk enquiry';
const RUN = Date.now().toString(36).toUpperCase();
const CASE_PREFIX = `Q2${RUN}`;
const COPY_PREFIX = `CC${RUN}`;
const SEARCH_PREFIX = `SR${RUN}`;
/** Alice's demo counterparty (scripts/local/seed/fleet.ts: +4477009002NN by the phone's place in the fleet). */
const CLIENT_NUMBER = '+447700900200';
/** The local job runs a production of a few documents in seconds; the screen asks again every 5 s. */
const RUN_TIMEOUT = { timeout: 90_000 };
const ME = 'Dana Admin (admin@demo.test)';

const controlNumber = (prefix: string, number: number) => `${prefix}${String(number).padStart(8, '0')}`;

/** The period as the form takes it: the last week, typed the British way (the demo media is of the last two days). */
function lastWeek(): { from: string; to: string } {
  const day = (time: number) => new Date(time).toLocaleDateString('en-GB', { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' });
  return { from: day(Date.now() - 7 * 86_400_000), to: day(Date.now()) };
}

async function typePeriod(form: Locator): Promise<void> {
  const period = lastWeek();
  for (const [label, value] of [['Period from', period.from], ['Period to', period.to]] as const) {
    await form.getByRole('textbox', { name: label }).fill(value);
    // Leaving the field (Tab) reads it, as a person's typing is read.
    await form.getByRole('textbox', { name: label }).press('Tab');
  }
}

/** How many documents the start notification announced ("Production started: 10 documents."). */
async function announcedDocuments(page: Page): Promise<number> {
  const note = page.locator('.mantine-Notification-root').filter({ hasText: /Production started: \d+ documents/ });
  await expect(note).toBeVisible();
  return Number(/(\d+) documents/.exec((await note.textContent()) ?? '')?.[1]);
}

/** Waits for the row's production to run to Succeeded: its named progress bar full, every document written. */
async function watchToSucceeded(row: Locator, documents: number): Promise<void> {
  await expect(row.getByRole('progressbar', { name: /^Production progress: \d+ of \d+ documents$/ })).toBeVisible();
  await expect(row.getByText('Succeeded', { exact: true })).toBeVisible(RUN_TIMEOUT);
  await expect(row.getByRole('progressbar', { name: `Production progress: ${documents} of ${documents} documents` })).toHaveAttribute('aria-valuenow', '100');
}

/** Clicks the row's Download and answers the file the browser saved (Playwright's download event). */
async function downloadOf(page: Page, row: Locator): Promise<string> {
  const downloading = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download' }).click();
  const download: Download = await downloading;
  const path = await download.path();
  expect(statSync(path).size).toBeGreaterThan(0);
  return path;
}

function sevenZip(args: string[]): string {
  const result = spawnSync('7zz', args, { encoding: 'utf8' });
  expect(result.status, `7zz ${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

interface Manifest {
  control_first: string;
  control_last: string;
  files: { path: string; size: number; sha256: string }[];
  documents: { doc_id: string; native_path: string; native_sha256: string }[];
}

/**
 * Opens the downloaded package as a reviewer would: a zip (by its first bytes) that 7-Zip lists and unpacks, whose
 * manifest names every other file in it with its size and SHA-256 (recomputed here), one document per control number
 * from `prefix`00000001 with its native under NATIVES/, and the two load files.
 */
function checkPackage(path: string, prefix: string, documents: number): Manifest {
  expect(readFileSync(path).subarray(0, 4).toString('hex'), 'a zip archive').toBe('504b0304');
  const listing = sevenZip(['l', path]);
  expect(listing).toContain('manifest.json');
  expect(listing).toContain('manifest.sha256');
  const folder = mkdtempSync(join(tmpdir(), 'e2e-production-'));
  sevenZip(['x', `-o${folder}`, path]);
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as Manifest;
  const packaged = filesUnder(folder).filter((file) => !file.startsWith('manifest.'));
  expect(manifest.files.map((file) => file.path).sort()).toEqual(packaged);
  for (const file of manifest.files) {
    expect(sha256(join(folder, file.path)), file.path).toBe(file.sha256);
    expect(statSync(join(folder, file.path)).size, file.path).toBe(file.size);
  }
  expect(packaged).toEqual(expect.arrayContaining(['DATA/loadfile.dat', 'DATA/loadfile.xml']));
  expect(manifest.documents.map((document) => document.doc_id)).toEqual(Array.from({ length: documents }, (_, index) => controlNumber(prefix, index + 1)));
  for (const document of manifest.documents) {
    expect(document.native_path).toMatch(new RegExp(`^NATIVES/${document.doc_id}\\.\\w+$`));
    expect(sha256(join(folder, document.native_path))).toBe(document.native_sha256);
  }
  expect([manifest.control_first, manifest.control_last]).toEqual([controlNumber(prefix, 1), controlNumber(prefix, documents)]);
  // The list `sha256sum -c` checks holds the same files and sums as the JSON.
  const sums = readFileSync(join(folder, 'manifest.sha256'), 'utf8').trim().split('\n');
  expect(sums.sort()).toEqual(manifest.files.map((file) => `${file.sha256}  ${file.path}`).sort());
  return manifest;
}

/** The production log's row of the production whose control numbers start with `prefix`. */
function logRow(page: Page, prefix: string): Locator {
  return page.getByRole('table', { name: 'Production log' }).getByRole('row').filter({ hasText: controlNumber(prefix, 1) });
}

test.describe('productions of the demo admin', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  test('produces the demo case as a download, watches it to Succeeded, downloads and opens it, and finds it in the log', async ({ page }) => {
    await page.goto('/dashboard');
    await page.getByRole('navigation').getByRole('link', { name: 'Cases', exact: true }).click();
    await page.getByRole('table', { name: 'Cases' }).getByRole('link', { name: DEMO_CASE }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_CASE);

    const form = page.getByRole('form', { name: 'New production' });
    await form.getByRole('textbox', { name: 'Control-number prefix' }).fill(CASE_PREFIX);
    await expect(form.getByLabel('Destination')).toHaveValue('Download link');
    await form.getByRole('button', { name: 'Produce' }).click();
    const documents = await announcedDocuments(page);
    // The demo case holds Alice's and Bram's call, three texts and an MMS each (types Call, SMS and MMS).
    expect(documents).toBeGreaterThan(0);

    const row = page.getByRole('table', { name: 'Productions of the case' }).getByRole('row').filter({ hasText: controlNumber(CASE_PREFIX, 1) });
    await expect(row).toHaveCount(1, RUN_TIMEOUT);
    await watchToSucceeded(row, documents);
    await expect(row).toContainText(`${controlNumber(CASE_PREFIX, 1)} – ${controlNumber(CASE_PREFIX, documents)}`);
    checkPackage(await downloadOf(page, row), CASE_PREFIX, documents);

    await page.getByRole('navigation').getByRole('link', { name: 'Productions', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Productions');
    const logged = logRow(page, CASE_PREFIX);
    await expect(logged).toHaveCount(1);
    await expect(logged).toContainText('Case');
    await expect(logged).toContainText(ME);
    await expect(logged).toContainText('Download link');
    await expect(logged).toContainText(`${controlNumber(CASE_PREFIX, 1)} – ${controlNumber(CASE_PREFIX, documents)}`);
    await checkScreen(page, { name: 'productions', title: 'Productions', mode: 'light' });
  });

  test('starts a client copy from the form: refusals under their fields, then progress, download and the log row', async ({ page }) => {
    await page.goto('/dashboard/productions');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Productions');
    await page.getByRole('button', { name: 'New production' }).click();
    await page.getByRole('menuitem', { name: 'Client copy' }).click();
    const form = page.getByRole('form', { name: 'New client copy' });
    await expect(form).toBeVisible();
    // A client copy names numbers, not people.
    await expect(form.getByRole('combobox', { name: 'Custodians' })).toHaveCount(0);

    // Hostile: a prefix with path characters is refused under its field before anything is sent.
    await form.getByLabel("The client's numbers").fill('+447700900998');
    await form.getByLabel("The client's numbers").press('Enter');
    await typePeriod(form);
    const prefix = form.getByRole('textbox', { name: 'Control-number prefix' });
    await prefix.fill('../etc');
    await form.getByRole('button', { name: 'Start production' }).click();
    await expect(form.getByText('Only letters, digits, _ and - are allowed')).toBeVisible();
    await expect(prefix).toHaveAttribute('aria-invalid', 'true');

    // A number no recording names: the server's refusal (no record matches) is shown above the form.
    await prefix.fill(COPY_PREFIX);
    await form.getByRole('button', { name: 'Start production' }).click();
    await expect(form.getByText(/No records you may see match the production/)).toBeVisible();
    await expect(errorNotifications(page)).toHaveCount(0);
    await expectNoSeriousAxeViolations(page, 'new client copy with its refusals');

    // The client's real number: Alice's demo counterparty.
    const numbers = form.getByLabel("The client's numbers");
    await numbers.press('Backspace');
    await numbers.fill(CLIENT_NUMBER);
    await numbers.press('Enter');
    await form.getByRole('button', { name: 'Start production' }).click();
    const documents = await announcedDocuments(page);
    await expect(form).toHaveCount(0);

    const started = page.getByRole('table', { name: 'Production started' }).getByRole('row').filter({ hasText: 'Client copy' });
    await expect(started).toHaveCount(1);
    await watchToSucceeded(started, documents);
    await expect(started).toContainText(ME);
    checkPackage(await downloadOf(page, started), COPY_PREFIX, documents);

    const logged = logRow(page, COPY_PREFIX);
    await expect(logged).toHaveCount(1, RUN_TIMEOUT);
    await expect(logged).toContainText('Client copy');
    await expect(logged).toContainText(ME);
    await expect(logged).toContainText(`${controlNumber(COPY_PREFIX, 1)} – ${controlNumber(COPY_PREFIX, documents)}`);
    await settle(page);
    await expectNoSeriousAxeViolations(page, 'productions with a client copy');
  });

  test('starts a search production of a custodian picked by name', async ({ page }) => {
    await page.goto('/dashboard/productions');
    await page.getByRole('button', { name: 'New production' }).click();
    await page.getByRole('menuitem', { name: 'From a search' }).click();
    const form = page.getByRole('form', { name: 'New production from a search' });
    await form.getByRole('button', { name: 'Start production' }).click();
    await expect(form.getByText('Pick at least one device user')).toBeVisible();

    await form.getByRole('combobox', { name: 'Custodians' }).fill('Bram');
    await page.getByRole('option', { name: /Bram Baker \(du-bram\)/ }).click();
    await typePeriod(form);
    await form.getByRole('textbox', { name: 'Control-number prefix' }).fill(SEARCH_PREFIX);
    await form.getByRole('button', { name: 'Start production' }).click();
    const documents = await announcedDocuments(page);

    const started = page.getByRole('table', { name: 'Production started' }).getByRole('row').filter({ hasText: 'Search' });
    await watchToSucceeded(started, documents);
    await expect(logRow(page, SEARCH_PREFIX)).toContainText(ME, RUN_TIMEOUT);
  });
});

test.describe('a role that may not produce', () => {
  test.use({ storageState: storageStateOf('demoReviewer') });

  test('is offered no "New production"', async ({ page }) => {
    await page.goto('/dashboard/productions');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Productions');
    await settle(page);
    await expect(page.getByRole('button', { name: 'New production' })).toHaveCount(0);
  });
});
