import { apiGet, checkScreen, expect, preferColourMode, storageStateOf, test, type ColourMode } from './support/fixtures.ts';

/**
 * The walk of the device, device user, access and dashboard screens as admin@demo.test, in light and dark mode: each screen's h1, no error notification,
 * no serious or critical axe violation, a full-page screenshot per mode (test-results/screenshots/).
 */
test.use({ storageState: storageStateOf('demoAdmin') });

interface Device {
  device_reference: string;
  services: string[];
  is_deactivated?: boolean;
  activated_at?: string;
}

/** References the detail screens need, looked up once through the admin API. */
let refs: { device: string; gpsDevice: string; deviceUser: string; role: string } | undefined;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  try {
    const devices = await apiGet<{ data: Device[] }>(request, 'demoAdmin', '/api/v1/demo/devices?limit=100');
    const users = await apiGet<{ data: { device_user_reference: string }[] }>(request, 'demoAdmin', '/api/v1/demo/users?limit=100');
    const roles = await apiGet<{ data: { role_reference: string }[] }>(request, 'demoAdmin', '/api/v1/demo/roles?limit=100');
    const active = devices.data.filter((device) => device.activated_at !== undefined && device.is_deactivated !== true);
    const gps = active.find((device) => device.services.includes('gps')) ?? active[0] ?? devices.data[0];
    refs = {
      device: (active[0] ?? devices.data[0])!.device_reference,
      gpsDevice: gps!.device_reference,
      deviceUser: (users.data.find((user) => user.device_user_reference === 'du-alice') ?? users.data[0])!.device_user_reference,
      role: (roles.data.find((role) => role.role_reference === 'admin') ?? roles.data[0])!.role_reference,
    };
  } finally {
    await request.dispose();
  }
});

type Refs = NonNullable<typeof refs>;
const SCREENS: { name: string; path: (r: Refs) => string; title: string | RegExp }[] = [
  { name: 'dashboard', path: () => '/dashboard', title: 'Dashboard' },
  { name: 'devices', path: () => '/dashboard/devices', title: 'Devices' },
  { name: 'device', path: (r) => `/dashboard/devices/${r.device}`, title: / · / },
  { name: 'device-gps', path: (r) => `/dashboard/devices/${r.gpsDevice}/gps`, title: 'Device location' },
  { name: 'device-logs', path: () => '/dashboard/devices/logs', title: 'Device logs' },
  { name: 'device-metrics', path: () => '/dashboard/devices/metrics', title: 'Device metrics' },
  { name: 'device-users', path: () => '/dashboard/devices/users', title: 'Device users' },
  { name: 'device-user', path: (r) => `/dashboard/devices/users/${r.deviceUser}`, title: /^Device user/ },
  { name: 'groups', path: () => '/dashboard/access/groups', title: 'Groups' },
  { name: 'tags', path: () => '/dashboard/access/tags', title: 'Tags' },
  { name: 'roles', path: () => '/dashboard/access/roles', title: 'Roles' },
  { name: 'role-create', path: () => '/dashboard/access/roles/create', title: 'Create role' },
  { name: 'role', path: (r) => `/dashboard/access/roles/${r.role}`, title: /^Role / },
];

for (const mode of ['light', 'dark'] as ColourMode[]) {
  test.describe(`${mode} mode`, () => {
    for (const screen of SCREENS) {
      test(screen.name, async ({ page }) => {
        await preferColourMode(page, mode);
        await page.goto(screen.path(refs!));
        await expect(page).toHaveURL(new RegExp(`${screen.path(refs!)}(\\?|$)`));
        await checkScreen(page, { name: screen.name, title: screen.title, mode });
      });
    }
  });
}
