import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import { ENTITY, keys } from '#core/store/keys.ts';
import { TABLE_KEYS } from '#core/store/table-definition.ts';

/**
 * The items that make a tenant, built without I/O: its account item, its account defaults and its two system roles
 * (`admin`, `reviewer`), and the portal user item of a person who signs in. One definition for the local seed
 * (`scripts/local/seed/seed.ts`) and the provisioning command of a deployed stage (`scripts/admin/tenant.ts`), so a
 * tenant created in AWS is exactly a tenant the local stack runs.
 * Keys come from the core store's key builders, so these are the items the services read.
 */
export type Item = Record<string, unknown>;

/** Who wrote the items (`updated_by`): the local seed, or the provisioning command. */
export type Writer = 'seed' | 'provisioning';

/** The role a tenant's first administrator gets; its Cognito group in the tenants pool has the same name. */
export const TENANT_ADMIN_ROLE = 'admin';
/** The role users without a known role get (the account defaults). */
export const TENANT_DEFAULT_ROLE = 'reviewer';

/**
 * What the reviewer does: every read verb of the action catalogue (`<area>:<Verb>`; `Summary` is the alert summary,
 * `Read*` covers ReadHistory, ReadAudit, ReadDefaults and ReadMetadata), playing recordings and viewing photos and
 * messages (`payloads:Play`), commenting (`comments:Create`: not editing or closing anyone's comment) and confirming
 * receipts. Never `payloads:Download` (no copies leave with a reviewer) nor any setting.
 */
export const REVIEWER_PATTERNS = ['*:List', '*:Get', '*:Read', '*:Read?*', '*:Summary', 'payloads:Play', 'comments:Create', 'payloads:ConfirmReceipt'] as const;

/** What the reviewer role says of itself (the roles screen shows it). */
export const REVIEWER_DESCRIPTION = 'Reviews everything: plays, views, comments and confirms receipts; downloads nothing and changes no setting';

const allow = (pattern: string) => ({ actions_matching: pattern, is_denied: false, is_regex: false });

/** A system role item (contract `Role`): is_system, so the role service refuses to edit or delete it. */
function systemRole(client: string, role: { reference: string; description: string; patterns: readonly string[] }, now: string, by: Writer): Item {
  const { reference, description, patterns } = role;
  const full = reference !== TENANT_DEFAULT_ROLE;
  return {
    ...keys.role.item(client, reference),
    client,
    role_reference: reference,
    description,
    permissions: patterns.map(allow),
    payload_types: [...PAYLOAD_TYPES],
    cidr_ranges: [],
    alert_permissions: { ops_read: true, ops_write: full, sec_read: full, sec_write: full },
    is_alertable: full,
    is_system: true,
    updated_at: now,
    updated_by: by,
  };
}

/** A tenant's own items, in the order they are written: account, defaults, admin role, reviewer role. */
export function tenantItems(client: string, displayName: string, now: string, by: Writer): Item[] {
  return [
    {
      ...keys.account.item(client),
      client,
      display_name: displayName,
      created_at: now,
      // A new tenant has no recording from before the processed-time index: transfers read only their window at once.
      // On the account item, which is only ever created, so provisioning an existing tenant again never claims it.
      processed_indexed_at: now,
      // Nor a telemetry report from before the latest-reports index: GET telemetry reads the index at once.
      telemetry_indexed_at: now,
      // Nor a message from before the thread index: an SMS thread reads its own messages at once.
      thread_indexed_at: now,
      updated_at: now,
      updated_by: by,
    },
    // Contract AccountDefaults: the role users without a known role get, and no account-wide CIDR limit.
    {
      ...keys.account.setting(client, 'DEFAULTS'),
      [TABLE_KEYS.entityAttribute]: ENTITY.account,
      setting: 'DEFAULTS',
      client,
      role: TENANT_DEFAULT_ROLE,
      cidr_ranges: [],
      updated_at: now,
      updated_by: by,
    },
    systemRole(client, { reference: TENANT_ADMIN_ROLE, description: 'Full access to the tenant', patterns: ['*'] }, now, by),
    systemRole(client, { reference: TENANT_DEFAULT_ROLE, description: REVIEWER_DESCRIPTION, patterns: REVIEWER_PATTERNS }, now, by),
  ];
}

export interface PortalUser {
  /** The identity provider's subject (`sub`), which is also the portal user reference. */
  sub: string;
  email: string;
  /** Tenant name, or `admin` for provider staff. */
  client: string;
  /** Role references, as the group claim (`cognito:groups`) carries them. */
  roles: readonly string[];
  firstName?: string;
  surname?: string;
}

/** A portal user item: what the staff list, the profile and the alert recipients read. Every group (`*`). */
export function portalUserItem(user: PortalUser, now: string, by: Writer): Item {
  return {
    ...keys.portalUser.item(user.client, user.sub),
    client: user.client,
    user_reference: user.sub,
    email: user.email,
    ...(user.firstName === undefined ? {} : { first_name: user.firstName }),
    ...(user.surname === undefined ? {} : { surname: user.surname }),
    roles: [...user.roles],
    user_group: '*',
    created_at: now,
    updated_at: now,
    updated_by: by,
  };
}
