import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { apiGet, authState, errorNotifications, expect, savedIdToken, SCREENSHOT_DIR, settle, storageStateOf, test } from './support/fixtures.ts';

/**
 * The portal fits each user's permissions and behaves the same on every screen: controls the user's roles would
 * refuse are disabled with the reason, refused input shows under its field, not-found keeps the layout, the header
 * names the person, and the GPS map draws land under the track.
 */

interface Refs {
  device: string;
  gpsDevice: string;
  deviceUser: string;
  role: string;
}

let refs: Refs | undefined;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  try {
    type Device = { device_reference: string; services: string[]; activated_at?: string; is_deactivated?: boolean };
    const devices = await apiGet<{ data: Device[] }>(request, 'demoAdmin', '/api/v1/demo/devices?limit=100');
    const users = await apiGet<{ data: { device_user_reference: string }[] }>(request, 'demoAdmin', '/api/v1/demo/users?limit=100');
    const active = devices.data.filter((device) => device.activated_at !== undefined && device.is_deactivated !== true);
    const gps = active.find((device) => device.services.includes('gps')) ?? active[0] ?? devices.data[0];
    refs = {
      device: (active[0] ?? devices.data[0])!.device_reference,
      gpsDevice: gps!.device_reference,
      deviceUser: (users.data.find((user) => user.device_user_reference === 'du-alice') ?? users.data[0])!.device_user_reference,
      role: 'admin',
    };
  } finally {
    await request.dispose();
  }
});

/** Every tenant screen that exists, with a detail page of each kind. */
const TENANT_SCREENS: { name: string; path: (r: Refs) => string }[] = [
  { name: 'dashboard', path: () => '/dashboard' },
  { name: 'devices', path: () => '/dashboard/devices' },
  { name: 'device', path: (r) => `/dashboard/devices/${r.device}` },
  { name: 'device GPS', path: (r) => `/dashboard/devices/${r.gpsDevice}/gps` },
  { name: 'device logs', path: () => '/dashboard/devices/logs' },
  { name: 'device metrics', path: () => '/dashboard/devices/metrics' },
  { name: 'device users', path: () => '/dashboard/devices/users' },
  { name: 'device user', path: (r) => `/dashboard/devices/users/${r.deviceUser}` },
  { name: 'groups', path: () => '/dashboard/access/groups' },
  { name: 'tags', path: () => '/dashboard/access/tags' },
  { name: 'roles', path: () => '/dashboard/access/roles' },
  { name: 'role', path: (r) => `/dashboard/access/roles/${r.role}` },
];

/** Buttons whose names say they change something: on the reviewer's screens each must be gated (tagged). */
const WRITE_VERBS = /^(Add|Create|Edit|Delete|Offboard|Re-onboard|Deactivate|Send|Save|Apply|Approve|Reject|Revoke)\b/;

/** The permission-gated controls on screen that are enabled, with the action each names. */
async function enabledGatedActions(page: Page): Promise<string[]> {
  return page.locator('[data-requires-action]:visible').evaluateAll((elements) =>
    elements
      .filter((element) => element.getAttribute('aria-disabled') !== 'true' && !(element as HTMLButtonElement).disabled)
      .map((element) => element.getAttribute('data-requires-action') ?? ''),
  );
}

/** Visible, enabled buttons named like a change that carry no permission tag (a control nobody gated). */
async function ungatedWriteButtons(page: Page): Promise<string[]> {
  const buttons = await page.getByRole('button').evaluateAll((elements) =>
    elements
      .filter((element) => (element as HTMLElement).offsetParent !== null)
      .filter((element) => element.getAttribute('aria-disabled') !== 'true' && !(element as HTMLButtonElement).disabled)
      .filter((element) => !element.hasAttribute('data-requires-action'))
      .map((element) => (element.textContent ?? '').trim()),
  );
  return buttons.filter((name) => WRITE_VERBS.test(name));
}

async function profileActions(page: Page): Promise<string[]> {
  const state = await authState(page);
  return ((state.user as { actions?: string[] } | undefined)?.actions ?? []).slice();
}

test.describe('as the read-only reviewer', () => {
  test.use({ storageState: storageStateOf('demoReviewer') });

  test('no screen offers an enabled control whose request the reviewer’s roles would refuse', async ({ page }) => {
    // One test walks every tenant screen: on a busy machine that is more than the default minute.
    test.slow();
    await page.goto('/dashboard');
    const allowed = new Set(await profileActions(page));
    expect(allowed.has('devices:List')).toBe(true);
    expect(allowed.has('deviceUsers:Create')).toBe(false);
    let gated = 0;
    for (const screen of TENANT_SCREENS) {
      await page.goto(screen.path(refs!));
      await settle(page);
      const enabled = await enabledGatedActions(page);
      const refused = enabled.filter((action) => !allowed.has(action));
      expect(refused, `${screen.name}: enabled controls the reviewer may not use`).toEqual([]);
      expect(await ungatedWriteButtons(page), `${screen.name}: change buttons without a permission gate`).toEqual([]);
      gated += await page.locator('[data-requires-action]:visible').count();
      await expect(errorNotifications(page), `${screen.name}: error notification`).toHaveCount(0);
    }
    // The walk did meet gated controls (else the check above proves nothing).
    expect(gated).toBeGreaterThan(5);
  });

  test('a disabled control says which action is missing, and clicking it sends nothing', async ({ page }) => {
    const writes: string[] = [];
    page.on('request', (sent) => {
      if (sent.method() !== 'GET' && sent.url().includes('/api/v1/')) writes.push(`${sent.method()} ${sent.url()}`);
    });

    await page.goto('/dashboard/devices/users');
    const add = page.getByRole('button', { name: 'Add device user' });
    await expect(add).toHaveAttribute('aria-disabled', 'true');
    await add.hover();
    await expect(page.getByRole('tooltip')).toContainText('Your roles do not allow onboarding device users');
    await add.click({ force: true });
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.goto(`/dashboard/devices/users/${refs!.deviceUser}`);
    for (const name of ['Edit', /^(Offboard|Re-onboard)$/]) {
      const button = page.getByRole('button', { name, exact: typeof name === 'string' });
      await expect(button).toHaveAttribute('aria-disabled', 'true');
      await button.click({ force: true });
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }

    await page.goto(`/dashboard/devices/${refs!.device}`);
    await expect(page.getByRole('button', { name: 'Deactivate' })).toHaveAttribute('aria-disabled', 'true');
    await expect(page.getByRole('button', { name: 'Send command' })).toHaveAttribute('aria-disabled', 'true');
    await expect(page.getByText('Your roles do not allow sending commands to devices')).toBeVisible();

    await page.goto('/dashboard/access/groups');
    await page.getByRole('button', { name: 'Create group' }).click({ force: true });
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.goto(`/dashboard/access/roles/${refs!.role}`);
    await expect(page.getByRole('button', { name: /Save role/ })).toHaveCount(0);
    expect(writes).toEqual([]);
  });

  test('navigation offers the screens the reviewer can read', async ({ page }) => {
    await page.goto('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const label of ['Devices', 'Device users', 'Groups', 'Roles', 'Tags']) {
      await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
    }
  });
});

test.describe('as the tenant admin', () => {
  test.use({ storageState: storageStateOf('demoAdmin') });

  test('the header names the signed-in person, not an internal subject', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page.getByTestId('signed-in-as')).toHaveText('Dana Admin');
    await expect(page.getByRole('banner')).not.toContainText('demo-admin');
  });

  test('a refused field shows under that field, and a save is confirmed', async ({ page, request }) => {
    const group = `e2e-vanishing-${Date.now()}`;
    const headers = { authorization: `Bearer ${savedIdToken('demoAdmin')}` };
    const created = await request.put(`/api/v1/demo/groups/${group}`, { headers, data: { tags: [] } });
    expect(created.ok(), await created.text()).toBe(true);

    await page.goto('/dashboard/devices/users');
    await page.getByRole('button', { name: 'Add device user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add device user' });
    const reference = `e2e-du-${Date.now()}`;
    await dialog.getByRole('textbox', { name: 'Reference' }).fill(reference);
    await dialog.getByRole('textbox', { name: 'First name' }).fill('Field');
    await dialog.getByRole('textbox', { name: 'Surname' }).fill('Check');
    await dialog.getByRole('textbox', { name: 'Email' }).fill('field.check@example.test');
    const groupInput = dialog.getByRole('combobox', { name: 'Group' });
    await groupInput.fill(group);
    await page.getByRole('option', { name: group, exact: true }).click();
    // The MultiSelect's pill field sits over its input and takes the click.
    await dialog.getByRole('combobox', { name: 'Services' }).click({ force: true });
    await page.getByRole('option', { name: 'Calls', exact: true }).click();
    await page.keyboard.press('Escape');

    // The group goes away before the form is sent: the server refuses `body.group`, which belongs under Group.
    const removed = await request.delete(`/api/v1/demo/groups/${group}`, { headers });
    expect(removed.ok(), await removed.text()).toBe(true);
    await dialog.getByRole('button', { name: 'Add device user' }).click();
    await expect(groupInput).toHaveAttribute('aria-invalid', 'true');
    const groupField = dialog.locator('.mantine-InputWrapper-root').filter({ has: page.getByRole('combobox', { name: 'Group' }) });
    await expect(groupField.locator('.mantine-InputWrapper-error')).toHaveText('Unknown group');
    await expect(dialog.getByText('body.group')).toHaveCount(0);
    // The form says it; no notification repeats it.
    await expect(errorNotifications(page)).toHaveCount(0);
    await page.screenshot({ path: screenshotPath('field-error-under-field') });

    // Put it right: a group that exists; the save is confirmed by a notification and the list shows the new user.
    await groupInput.fill('');
    await groupInput.click();
    await page.getByRole('option').filter({ hasNotText: group }).first().click();
    await dialog.getByRole('button', { name: 'Add device user' }).click();
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Field Check added.' })).toBeVisible();
  });

  test('not-found under /dashboard keeps the layout and its navigation', async ({ page }) => {
    await page.goto('/dashboard/no/such/screen');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found: /dashboard/no/such/screen');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Devices', exact: true })).toBeVisible();
    await expect(page.getByRole('main')).toHaveCount(1);
    await nav.getByRole('link', { name: 'Devices', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Devices');
  });

  test('the GPS map draws land under the track without a tile server', async ({ page }) => {
    await page.goto(`/dashboard/devices/${refs!.gpsDevice}/gps`);
    const map = page.getByRole('region', { name: /Map of the device's GPS points/ });
    await expect(map).toBeVisible();
    await expect(map.locator('path.world-land').first()).toBeAttached({ timeout: 15_000 });
    expect(await map.locator('path.world-land').count()).toBeGreaterThan(0);
    // The land lies under the track: its pane is stacked below the pane holding the fixes.
    const stacking = await map.evaluate((region) => {
      const zIndexOf = (selector: string) => Number(getComputedStyle(region.querySelector(selector)!.closest('.leaflet-pane')!).zIndex);
      return { land: zIndexOf('path.world-land'), track: zIndexOf('path.leaflet-interactive') };
    });
    expect(stacking.land).toBeLessThan(stacking.track);
    await map.screenshot({ path: screenshotPath('gps-map-world-outline') });
  });
});

test.describe('as provider staff', () => {
  test.use({ storageState: storageStateOf('staff') });

  test('the header names the staff member, and not-found under /internal keeps the staff navigation', async ({ page }) => {
    await page.goto('/internal');
    await expect(page.getByTestId('signed-in-as')).toHaveText('Sam Staff');
    await page.goto('/internal/no-such-page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found: /internal/no-such-page');
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Support', exact: true })).toBeVisible();
  });
});

const screenshotPath = (name: string) => join(SCREENSHOT_DIR, `${name}.png`);
