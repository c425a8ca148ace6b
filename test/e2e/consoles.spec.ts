import { checkScreen, expect, preferColourMode, storageStateOf, test, type AccountName, type ColourMode } from './support/fixtures.ts';

/**
 * The walk of the account and staff consoles, in light and dark mode: each screen's h1, no error notification, no
 * serious or critical axe violation, a screenshot per mode (<results>/screenshots/consoles-*). Tenant screens are
 * walked as the demo admin and as the demo reviewer (who reads but changes nothing); staff screens as staff.
 */
const ACCOUNT_SCREENS = [
  { name: 'alerts', path: '/dashboard/account/alerts', title: 'Alerts' },
  { name: 'apps', path: '/dashboard/account/apps', title: 'Client apps' },
  { name: 'audit', path: '/dashboard/account/audit', title: 'Audit' },
  { name: 'audit-devices', path: '/dashboard/account/audit?trail=devices', title: 'Audit' },
  { name: 'licences', path: '/dashboard/account/licenses', title: 'Licences' },
  { name: 'support-access', path: '/dashboard/account/support-access', title: 'Support access' },
  { name: 'support-access-history', path: '/dashboard/account/support-access?view=history', title: 'Support access' },
] as const;

const STAFF_SCREENS = [
  { name: 'clients', path: '/internal', title: 'Staff console' },
  { name: 'client-demo', path: '/internal/clients/demo', title: 'Client demo' },
  { name: 'alerts', path: '/internal/alerts', title: 'Alerts' },
  { name: 'carriers', path: '/internal/carriers', title: 'Carriers' },
  { name: 'licences', path: '/internal/licenses', title: 'Licences' },
  { name: 'statistics', path: '/internal/statistics', title: 'Statistics' },
  { name: 'support', path: '/internal/support?status=pending', title: 'Support access' },
] as const;

const WALKS: { account: AccountName; prefix: string; screens: readonly { name: string; path: string; title: string }[] }[] = [
  { account: 'demoAdmin', prefix: 'consoles-admin', screens: ACCOUNT_SCREENS },
  { account: 'demoReviewer', prefix: 'consoles-reviewer', screens: ACCOUNT_SCREENS },
  { account: 'staff', prefix: 'consoles-staff', screens: STAFF_SCREENS },
];

for (const walk of WALKS) {
  test.describe(walk.account, () => {
    test.use({ storageState: storageStateOf(walk.account) });
    for (const mode of ['light', 'dark'] as ColourMode[]) {
      for (const screen of walk.screens) {
        test(`${screen.name} (${mode})`, async ({ page }) => {
          await preferColourMode(page, mode);
          await page.goto(screen.path);
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.title);
          await expect(page.getByText('Not in this version yet')).toHaveCount(0);
          await checkScreen(page, { name: `${walk.prefix}-${screen.name}`, title: screen.title, mode });
        });
      }
    }
  });
}

test.describe('what each role is offered', () => {
  test.describe('reviewer', () => {
    test.use({ storageState: storageStateOf('demoReviewer') });

    test('sees operational alerts only, and Clear, Register app and Approve are refused with the reason', async ({ page }) => {
      await page.goto('/dashboard/account/alerts');
      const tabs = page.getByRole('tablist');
      await expect(tabs.getByRole('tab', { name: 'Operational' })).toBeVisible();
      await expect(tabs.getByRole('tab', { name: 'Security' })).toHaveCount(0);
      await expect(page.locator('[data-requires-action="alerts:Clear"]')).toHaveAttribute('aria-disabled', 'true');

      await page.goto('/dashboard/account/apps');
      const register = page.getByRole('button', { name: 'Register app' });
      await expect(register).toHaveAttribute('aria-disabled', 'true');
      await register.hover();
      await expect(page.getByRole('tooltip')).toContainText('Your roles do not allow registering client apps');
    });
  });

  test.describe('admin', () => {
    test.use({ storageState: storageStateOf('demoAdmin') });

    test('sees both alert scopes and may clear', async ({ page }) => {
      await page.goto('/dashboard/account/alerts');
      await expect(page.getByRole('tab', { name: 'Operational' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Security' })).toBeVisible();
      await expect(page.locator('[data-requires-action="alerts:Clear"]')).not.toHaveAttribute('aria-disabled', 'true');
    });

    test('the audit screen says how far each trail is linked into the hash chain', async ({ page }) => {
      await page.goto('/dashboard/account/audit');
      const chain = page.getByRole('region', { name: 'Audit chain' });
      // The chain state reads both trails' heads and checkpoints: on a busy machine it can take longer than a list.
      await expect(chain.getByText('Portal users and apps')).toBeVisible({ timeout: 30_000 });
      await expect(chain.getByText(/records linked \(head #/).first()).toBeVisible();
      await expect(chain.getByText(/Last signed checkpoint:/).first()).toBeVisible();
    });
  });
});
