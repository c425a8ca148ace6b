import type { Dependencies } from '#core/dependencies.ts';
import { keys } from '#core/store/keys.ts';
import { DeviceUser, type DeviceUserRequest } from '#shared/contract/entities/device-users.ts';
import { GroupRequest, TagDefinitionRequest } from '#shared/contract/entities/groups.ts';
import { signInDemoAccount } from '../../device/portal-sign-in.ts';
import { STAFF_CLIENT } from './accounts.ts';

/**
 * The demo organisation: tag definitions and groups of tenants `demo` and `acme`, and each fleet device user placed
 * in a group. Written once (marker item) through the real HTTP API as each tenant's admin, so the tag review, the
 * group checks and the group stats (moved by the device-user PUT in the same transaction) are the portal's own.
 *
 * No tag is required: a required definition would fill every group's tags with its default, including the groups
 * other tools and tests create in these tenants.
 */
export const ACCESS_VERSION = 'v1';
export const accessMarkerKey = () => keys.account.setting(STAFF_CLIENT, `LOCAL_ACCESS_${ACCESS_VERSION}`);

export interface SeedTag {
  tag_key: string;
  request: TagDefinitionRequest;
}

export interface SeedGroup {
  group_reference: string;
  request: GroupRequest;
}

export interface TenantAccess {
  client: string;
  /** The tenant admin the API is called as. */
  adminEmail: string;
  tags: readonly SeedTag[];
  groups: readonly SeedGroup[];
}

const tag = (tag_key: string, tag_values: string[] | null, description: string): SeedTag => ({
  tag_key,
  request: TagDefinitionRequest.parse({ tag_values, description }),
});

const group = (group_reference: string, tags: Record<string, string>): SeedGroup => ({
  group_reference,
  request: GroupRequest.parse({ tags: Object.entries(tags).map(([tag_key, tag_value]) => ({ tag_key, tag_value })) }),
});

/** Per tenant, the definitions first (a group's tags are checked against them), then the groups. */
export const DEMO_ACCESS: readonly TenantAccess[] = [
  {
    client: 'demo',
    adminEmail: 'admin@demo.test',
    tags: [
      tag('region', ['london', 'manchester', 'edinburgh'], 'Office the desk trades from'),
      tag('desk', ['equities', 'fixed-income', 'fx'], 'Trading desk'),
      tag('risk', null, 'Surveillance risk rating and why (free text)'),
    ],
    groups: [
      group('london-equities', { region: 'london', desk: 'equities', risk: 'High: voice-brokered block trades' }),
      group('manchester-fx', { region: 'manchester', desk: 'fx', risk: 'High: client FX orders by phone' }),
      group('edinburgh-fixed-income', { region: 'edinburgh', desk: 'fixed-income', risk: 'Medium: institutional bond sales' }),
      group('compliance', { region: 'london', risk: 'Low: oversight staff, no client orders' }),
    ],
  },
  {
    client: 'acme',
    adminEmail: 'admin@acme.test',
    tags: [tag('region', ['london', 'manchester'], 'Office the team works from'), tag('risk', null, 'Surveillance risk rating (free text)')],
    groups: [group('sales', { region: 'london', risk: 'Medium: client calls' }), group('compliance', { region: 'manchester' })],
  },
];

/** A fleet device user and the group the seed places it in. */
export interface UserPlacement {
  client: string;
  device_user_reference: string;
  group: string;
}

/** The admin API of one tenant, called with a bearer token; every answer but a 404 on GET must be a 2xx. */
function tenantApi(apiUrl: string, client: string, token: string) {
  return async (method: 'GET' | 'PUT', path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${apiUrl}/api/v1/${client}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (method === 'GET' && response.status === 404) return undefined;
    if (!response.ok) throw new Error(`${method} ${client}${path} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
}

/** The PUT body that keeps a device user as it is and places it in `group`; undefined when it cannot be re-sent. */
export function placementRequest(user: DeviceUser, group: string): DeviceUserRequest | undefined {
  const { services, expected_device_count, email, first_name, surname, is_active } = user;
  if (services.length === 0 || email === undefined || first_name === undefined || surname === undefined) return undefined;
  return { group, services, expected_device_count, email, first_name, surname, is_active };
}

/**
 * Seeds the tags and groups of `DEMO_ACCESS` and places `users` in their groups, once; answers whether it ran.
 * Anything already there (made in the portal before the seed ran, or by an interrupted run) is kept: a tag or
 * group that exists is not replaced, a user that has a group is not moved, a user that does not exist is skipped.
 */
export async function seedDemoAccess(
  deps: Pick<Dependencies, 'table'>,
  apiUrl: string,
  users: readonly UserPlacement[],
  options: { access?: readonly TenantAccess[]; signIn?: (apiUrl: string, email: string) => Promise<string> } = {},
): Promise<boolean> {
  const { access = DEMO_ACCESS, signIn = signInDemoAccount } = options;
  if ((await deps.table.get(accessMarkerKey(), { consistent: true })) !== undefined) return false;
  for (const tenant of access) {
    const call = tenantApi(apiUrl, tenant.client, await signIn(apiUrl, tenant.adminEmail));
    const path = (kind: string, reference: string) => `/${kind}/${encodeURIComponent(reference)}`;
    for (const { tag_key, request } of tenant.tags) {
      if ((await call('GET', path('tags', tag_key))) === undefined) await call('PUT', path('tags', tag_key), request);
    }
    for (const { group_reference, request } of tenant.groups) {
      if ((await call('GET', path('groups', group_reference))) === undefined) await call('PUT', path('groups', group_reference), request);
    }
    for (const placement of users.filter((user) => user.client === tenant.client)) {
      const found = await call('GET', path('users', placement.device_user_reference));
      if (found === undefined) continue;
      const user = DeviceUser.parse(found);
      if (user.group !== undefined) continue;
      const request = placementRequest(user, placement.group);
      if (request !== undefined) await call('PUT', path('users', placement.device_user_reference), request);
    }
  }
  await deps.table.put({ ...accessMarkerKey(), entity: 'LocalSeed', seeded_at: new Date().toISOString() });
  return true;
}
