/**
 * Debian's chromium and the flags it needs here, for the browser tests (playwright.config.ts) and the portal bench
 * (scripts/bench/web.ts). Nothing downloads a browser. Without the background-networking flags Chromium keeps trying
 * to reach Google's hosts, which this machine's closed network refuses.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];
