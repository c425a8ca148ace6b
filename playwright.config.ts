import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.ts';
import { RESULTS_DIR_ENV } from './test/e2e/support/env.ts';

/** Artefacts go to test-results/ unless a run names its own folder (two runs in one work tree). */
const RESULTS_DIR = process.env[RESULTS_DIR_ENV] ?? 'test-results';

/**
 * Browser tests: Debian's chromium (never a downloaded browser) against the REAL local stack, which
 * test/e2e/global-setup.ts builds and starts on a free port. The `setup` project signs each demo account in through
 * the local provider's page once per run and saves its storage state; the specs reuse those states.
 * Artefacts: test-results/screenshots/<screen>-<light|dark>.png, test-results/e2e/ (failure screenshots and traces),
 * test-results/report/ (HTML report).
 */

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: `${RESULTS_DIR}/e2e`,
  globalSetup: './test/e2e/global-setup.ts',
  // Two cores: two browsers side by side, the stack beside them.
  workers: 2,
  fullyParallel: true,
  retries: 0,
  forbidOnly: process.env.CI !== undefined,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: `${RESULTS_DIR}/report`, open: 'never' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'setup', testMatch: /.*\.setup\.ts/ },
    { name: 'chromium', testMatch: /.*\.spec\.ts/, dependencies: ['setup'] },
  ],
});
