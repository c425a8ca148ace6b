import type { SupportAccessApprovalState } from '#shared/constants/account.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { raiseAlert, type RaiseAlertInput } from './raise-alert.ts';
import { relatedEntity } from './related-entities.ts';

/**
 * The security events access control reports, as `sec` alerts (docs/decisions.md "Security
 * alerts"). Every definition (subject, key, key type, severity, message) lives here so each call site is one line:
 * `await raiseSecurityAlert(deps, client, { kind: ..., ... })`.
 */
export type SecurityEvent = CidrRefused | RoleChanged | SupportAccessChanged | ClientAppTokenRefused;

/** A call refused because the caller's address is outside the account's, the client app's or a role's ranges. */
export interface CidrRefused {
  kind: 'cidr-refused';
  /** The activity log's user id: a portal user's `sub`, a client app's reference. */
  userId: string;
  /** How people know the caller (email, or `app:<reference>`); only shown, never keyed on. */
  userLabel: string;
  ip: string | undefined;
  /** `<area>:<Verb>` of the refused call. */
  action: string;
  /** The 403's own sentence (which ranges refused it). */
  reason: string;
}

/** A role created, replaced or deleted (PUT / DELETE roles/{role_reference}). */
export interface RoleChanged {
  kind: 'role-changed';
  change: 'created' | 'replaced' | 'deleted';
  role: string;
  /** Who changed it (email when the token has one, else the actor id). */
  by: string;
  /** The changer's activity-log user id, when a portal user or an app made the change. */
  byUserId?: string;
}

/** A support-access request entered a new state. */
export interface SupportAccessChanged {
  kind: 'support-access';
  /** The state just entered (`pending`: requested). */
  state: SupportAccessApprovalState;
  reference: string;
  role: string;
  by: string;
  /** The approval's end, for `approved`. */
  until?: string;
}

/** A token that claimed to be one of the tenant's client apps (or an unknown issuer) and failed verification. */
export interface ClientAppTokenRefused {
  kind: 'client-app-token-refused';
  /** The app whose issuer the token named; undefined when no app of the tenant has that issuer. */
  appReference?: string;
  /** The token's unverified `iss` (chosen by the caller: shown clipped, keyed on only through an app). */
  issuer: string;
  /** The 401's reason (`Token audience invalid`, `Token signature invalid`, …). */
  reason: string;
}

/** Caller-chosen text (token claims, addresses) is clipped before it reaches a key or a message. */
const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);

const SUPPORT_VERB: Record<SupportAccessChanged['state'], string> = {
  pending: 'requested',
  approved: 'approved',
  rejected: 'rejected',
  revoked: 'revoked',
  canceled: 'canceled',
  expired: 'expired',
};

/** The alert an event raises in `client` (pure: unit-tested beside this file). */
export function securityAlert(client: string, event: SecurityEvent): RaiseAlertInput {
  switch (event.kind) {
    case 'cidr-refused': {
      const ip = event.ip ?? 'unknown';
      // Scoped per (user, ip): a burst of refusals is one alert whose occurrences count it.
      return {
        scope: 'sec',
        type: 'PortalUserAlert',
        subject: 'Call refused by CIDR ranges',
        key: `cidr-refused:${clip(event.userId)}:${clip(ip, 64)}`,
        keyType: 'Scoped',
        severity: 'Medium',
        message: `${clip(event.userLabel)} from ${clip(ip, 64)} was refused ${event.action}: ${clip(event.reason, 400)}`,
        relatedEntities: [relatedEntity(client, 'PortalUser', event.userId)],
        apiAction: event.action,
      };
    }
    case 'role-changed':
      return {
        scope: 'sec',
        type: 'AccountAlert',
        subject: `Role ${event.change}`,
        key: `role-changed:${clip(event.role)}`,
        keyType: 'Transient',
        severity: 'Low',
        message: `Role "${event.role}" was ${event.change} by ${clip(event.by)}`,
        relatedEntities: event.byUserId === undefined ? [] : [relatedEntity(client, 'PortalUser', event.byUserId)],
        apiAction: event.change === 'deleted' ? 'roles:Delete' : 'roles:Update',
      };
    case 'support-access': {
      const verb = SUPPORT_VERB[event.state];
      const until = event.until === undefined ? '' : ` until ${event.until}`;
      return {
        scope: 'sec',
        type: 'AccountAlert',
        subject: `Support access ${verb}`,
        key: `support-access:${event.reference}:${event.state}`,
        keyType: 'Transient',
        // Approval is the one that opens the tenant to provider staff.
        severity: event.state === 'approved' ? 'High' : 'Medium',
        message: `Support access request ${event.reference} for role "${event.role}" was ${verb}${until} by ${clip(event.by)}`,
        relatedEntities: [relatedEntity(client, 'SupportAccessRequest', event.reference)],
      };
    }
    case 'client-app-token-refused': {
      const issuer = clip(event.issuer);
      // Keyed per app; tokens of unknown issuers share one key, since their issuer is whatever the caller wrote.
      const key = event.appReference === undefined ? 'client-app-token-refused:unknown-issuer' : `client-app-token-refused:app:${event.appReference}`;
      const who = event.appReference === undefined ? `a token of unknown issuer ${issuer}` : `a token for client app ${event.appReference} (issuer ${issuer})`;
      return {
        scope: 'sec',
        type: 'AccountAlert',
        subject: 'Client app token refused',
        key,
        keyType: 'Scoped',
        severity: 'Medium',
        message: `Refused ${who}: ${clip(event.reason)}`,
      };
    }
  }
}

export type SecurityAlertDeps = Pick<Dependencies, 'table' | 'clock' | 'logger'>;

/**
 * Raises the event's alert in `client` (the tenant whose security it concerns). Never throws: a failed alert is
 * logged and must not turn the refusal or the change it reports into a 500.
 */
export async function raiseSecurityAlert(deps: SecurityAlertDeps, client: string, event: SecurityEvent): Promise<void> {
  try {
    await raiseAlert(deps, client, securityAlert(client, event));
  } catch (error) {
    deps.logger.error('security alert not raised', { client, event: event.kind, error });
  }
}
