import { callAction, type Endpoint } from './endpoint.ts';

/**
 * Support mode creates nothing that outlives its grant (docs/decisions.md, "Support mode creates nothing that outlives
 * its grant"). Staff acting in a tenant through an approved support-access request are refused every act that creates
 * or changes something able to act after the grant ends: an identity that signs in on its own (a client app), a
 * delivery to an address with its schedule (a transfer configuration), or a grant of permissions (a role, the account
 * default role, a client app's roles). Whatever their role allows otherwise, these answer 403 with the line below.
 *
 * Keyed by action, not by endpoint: the profile's `actions` and the portal's buttons work in actions, so one table
 * drives the refusal in the request pipeline (lambdas/core/auth/access/resolve-access.ts `authorize`), the actions the
 * profile offers in support mode, and the reason the portal shows. Each of these actions names exactly the endpoints
 * listed in shared/contract/support-mode.test.ts.
 *
 * Left allowed on purpose: deleting a client app or a transfer configuration (it ends something, starts nothing), and
 * running a transfer now or again (it acts at once, while the grant is live, towards a destination the tenant already
 * configured; the schedule stays the tenant's).
 */
export const SUPPORT_MODE_REFUSED: Readonly<Record<string, string>> = Object.freeze({
  'apps:Create': 'create or change client apps',
  'apps:Update': 'create or change client apps',
  'transferConfigs:Create': 'create or change transfer configurations',
  'transferConfigs:Update': 'create or change transfer configurations',
  'roles:Update': 'create, change or delete roles',
  'roles:Delete': 'create, change or delete roles',
  'account:UpdateDefaults': "change the account defaults (the default role and the account's CIDR ranges)",
});

/** The 403 line for an action refused in support mode. */
export function supportModeRefusalOf(action: string): string | undefined {
  const what = Object.hasOwn(SUPPORT_MODE_REFUSED, action) ? SUPPORT_MODE_REFUSED[action] : undefined;
  return what === undefined ? undefined : `Support mode cannot ${what}; ask the tenant's administrator`;
}

/** The 403 line when this call (its action as its query chooses it) is refused in support mode, else undefined. */
export function supportModeRefusal(endpoint: Pick<Endpoint, 'action' | 'actionByQuery'>, query?: unknown): string | undefined {
  return supportModeRefusalOf(callAction(endpoint, query));
}
