import { checkScreen, errorNotifications, expect, openStaffPage, preferColourMode, storageStateOf, test, type ColourMode } from './support/fixtures.ts';

/** The frame of the portal (public pages, 404), signed out. */
const PUBLIC_SCREENS = [
  { name: 'landing', path: '/', title: 'Compliance recording you can prove' },
  { name: 'cookies', path: '/cookies', title: 'Cookies and local storage' },
  { name: 'privacy', path: '/privacy', title: 'Privacy' },
  { name: 'terms', path: '/terms', title: 'Terms of use' },
] as const;

for (const mode of ['light', 'dark'] as ColourMode[]) {
  test.describe(`signed out, ${mode} preference`, () => {
    test.beforeEach(async ({ page }) => preferColourMode(page, mode));

    for (const screen of PUBLIC_SCREENS) {
      test(`${screen.path} (forced light)`, async ({ page }) => {
        await page.goto(screen.path);
        await checkScreen(page, { name: screen.name, title: screen.title, mode, forcedLight: true });
      });
    }

    test('/sign-in', async ({ page }) => {
      await page.goto('/sign-in');
      await checkScreen(page, { name: 'sign-in', title: 'Sign in to Verity', mode });
    });

    test('404 page', async ({ page }) => {
      await page.goto('/no/such/page');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found: /no/such/page');
      await checkScreen(page, { name: 'not-found', title: 'Page not found: /no/such/page', mode });
    });
  });
}

test('/dashboard signed out goes to /sign-in, remembering where it was going', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/sign-in\?redirect=/);
  await expect(errorNotifications(page)).toHaveCount(0);
});

test.describe('staff console', () => {
  test.use({ storageState: storageStateOf('staff') });
  for (const mode of ['light', 'dark'] as ColourMode[]) {
    test(`/internal (${mode})`, async ({ page }) => {
      await preferColourMode(page, mode);
      await openStaffPage(page);
      await checkScreen(page, { name: 'internal', title: 'Staff console', mode });
    });

    test(`/internal/support (${mode})`, async ({ page }) => {
      await preferColourMode(page, mode);
      await openStaffPage(page, 'Support');
      await expect(page).toHaveURL(/\/internal\/support/);
      await checkScreen(page, { name: 'internal-support', title: 'Support access', mode });
    });
  }

  // /internal/support is a portal page (web/README.md: API paths are versioned, /internal/v1/…): a reload or a link
  // straight to it must load the portal, not the API's 404.
  test('deep link to /internal/support loads the page', async ({ page }) => {
    await page.goto('/internal/support');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Support access');
  });
});
