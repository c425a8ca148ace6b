import { securityHeaders } from '../../lib/config/security-headers.ts';
import { STACK_ENV_ENV } from './support/env.ts';
import { expect, test } from './support/fixtures.ts';

/**
 * The portal runs locally under the policy production serves (lib/config/security-headers.ts), and a page that breaks
 * it fails its test (support/csp-guard.ts, on every spec).
 */
const s3Origin = new URL((JSON.parse(process.env[STACK_ENV_ENV] ?? '{}') as { S3_ENDPOINT?: string }).S3_ENDPOINT ?? 'http://missing').origin;

test('the portal is served with production security headers', async ({ page }) => {
  const response = await page.goto('/');
  const headers = response!.headers();
  const expected = securityHeaders({ payloadOrigin: s3Origin, uploadOrigin: s3Origin, secure: false });
  for (const [name, value] of Object.entries(expected)) expect(headers[name], name).toBe(value);
});

test('an inline script is refused, and the guard sees it', async ({ page, cspGuard }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const ran = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true;';
    document.head.append(script);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => cspGuard.violations.join('\n')).toContain('script-src');
  // Seen and asserted: this test's violation is the expected one, not a failure of the page.
  cspGuard.violations.length = 0;
});
