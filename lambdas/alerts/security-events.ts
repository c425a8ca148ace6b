import type { SupportAccessApprovalState } from '#shared/constants/account.ts';
import type { Actor } from '#shared/contract/entities/actor.ts';
import { actorWords } from '../core/auth/actor.ts';
import type { Dependencies } from '../core/dependencies.ts';
import type { CidrRefused, ClientAppTokenRefused, SecurityAlertDependencies, SecurityAlerts } from '../core/ports/security-alerts.ts';
import type { TransactOperation } from '../core/ports/table-store.ts';
import { newAlertWrites, raiseAlert, type RaiseAlertInput } from './raise-alert.ts';
import { relatedEntity } from './related-entities.ts';

/**
 * The security events access control reports, as `sec` alerts (docs/decisions.md "Security
 * alerts"). Every definition (subject, key, key type, severity, message) lives here so each call site is one line:
 * `await raiseSecurityAlert(deps, client, { kind: ..., ... })`.
 */
// The refusals the HTTP pipeline reports are declared with its port (core knows no area).
export type { CidrRefused, ClientAppTokenRefused } from '../core/ports/security-alerts.ts';

export type SecurityEvent =
  | CidrRefused
  | RoleChanged
  | SupportAccessChanged
  | ClientAppTokenRefused
  | ClientAppChanged
  | TransferDestinationChanged;

/**
 * Who made a change and from where, as a change's alert names them: the actor as the changed record keeps them (their
 * name and e-mail as their token carried them, a client app by its reference) and the caller's source address.
 */
export interface ChangedBy {
  actor: Actor;
  /** The caller's source IP (`requestContext.http.sourceIp`); undefined when the request carried none. */
  ip: string | undefined;
}

/** A role created, replaced or deleted (PUT / DELETE roles/{role_reference}). */
export interface RoleChanged extends ChangedBy {
  kind: 'role-changed';
  change: 'created' | 'replaced' | 'deleted';
  role: string;
  /**
   * How the change makes the role grant more than before (more actions, broader groups or payload types, wider CIDR
   * ranges, a deny dropped: ../access/roles/role-widening.ts), one sentence each; empty when it grants no more.
   */
  grantsMore: readonly string[];
}

/** A client app registered or replaced: an identity that signs in on its own, with the roles it was given. */
export interface ClientAppChanged extends ChangedBy {
  kind: 'client-app-changed';
  change: 'created' | 'replaced';
  app: string;
  issuer: string;
  jwksUri: string;
  roles: readonly string[];
}

/** A transfer configuration whose destination (S3 bucket and role, or SFTP server, port, user and directory) is new or changed. */
export interface TransferDestinationChanged extends ChangedBy {
  kind: 'transfer-destination-changed';
  change: 'created' | 'changed';
  config: string;
  /** The destination in words (`sftp://user@host:22/dir`, `s3://bucket/prefix as role arn:…`). */
  destination: string;
  /** The schedule expression, or empty for run on demand only. */
  schedule: string;
  /** An inactive configuration delivers nothing until it is enabled. */
  active: boolean;
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

/** Caller-chosen text (token claims, addresses) is clipped before it reaches a key or a message. */
const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * "Dana Admin (admin@demo.test) from 198.51.100.7": who by name (a client app as such; staff in support mode with the
 * request they acted under) and the address they called from.
 */
export function changedByWords({ actor, ip }: ChangedBy): string {
  const who =
    actor.kind === 'client-app'
      ? `client app ${actor.name ?? actor.reference}`
      : `${actorWords(actor)}${actor.support_request === undefined ? '' : ` in support mode (request ${actor.support_request})`}`;
  return `${clip(who)} from ${clip(ip ?? 'an unknown address', 64)}`;
}

/** The changer's activity link: the trail lists their calls under their stable reference. */
const changerEntity = (client: string, actor: Actor) => relatedEntity(client, 'PortalUser', actor.reference);

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
    case 'role-changed': {
      // A role that grants more than before is the change an escalation needs: High, with what it grants now.
      const more = event.grantsMore.length > 0;
      const what = more ? `; it grants more than before: ${clip(event.grantsMore.join(' '), 1500)}` : '';
      return {
        scope: 'sec',
        type: 'AccountAlert',
        subject: more ? `Role ${event.change}, granting more` : `Role ${event.change}`,
        key: `role-changed:${clip(event.role)}`,
        keyType: 'Transient',
        severity: more ? 'High' : 'Low',
        message: `Role "${event.role}" was ${event.change} by ${changedByWords(event)}${what}`,
        relatedEntities: [changerEntity(client, event.actor)],
        apiAction: event.change === 'deleted' ? 'roles:Delete' : 'roles:Update',
      };
    }
    case 'client-app-changed':
      // A client app is a way in that needs nobody's sign-in: every registration or change is High.
      return {
        scope: 'sec',
        type: 'AccountAlert',
        subject: `Client app ${event.change}`,
        key: `client-app-changed:${clip(event.app)}`,
        keyType: 'Transient',
        severity: 'High',
        message:
          `Client app "${event.app}" was ${event.change} by ${changedByWords(event)}: tokens of issuer ${clip(event.issuer)} ` +
          `(key set ${clip(event.jwksUri)}) act with roles ${clip(event.roles.map((role) => `"${role}"`).join(', '), 600)}`,
        relatedEntities: [changerEntity(client, event.actor)],
        apiAction: event.change === 'created' ? 'apps:Create' : 'apps:Update',
      };
    case 'transfer-destination-changed': {
      const when = !event.active ? 'inactive for now' : event.schedule === '' ? 'on demand only' : `on schedule ${clip(event.schedule, 100)}`;
      return {
        scope: 'sec',
        type: 'AccountAlert',
        subject: event.change === 'created' ? 'Transfer destination created' : 'Transfer destination changed',
        key: `transfer-destination:${clip(event.config)}`,
        keyType: 'Transient',
        // Recordings leave the tenant to this address: High.
        severity: 'High',
        message:
          `Transfer configuration "${clip(event.config)}" ${event.change === 'created' ? 'was created, delivering' : 'now delivers'} ` +
          `to ${clip(event.destination, 600)}, ${when}, by ${changedByWords(event)}`,
        relatedEntities: [changerEntity(client, event.actor)],
        apiAction: event.change === 'created' ? 'transferConfigs:Create' : 'transferConfigs:Update',
      };
    }
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

export type SecurityAlertDeps = SecurityAlertDependencies;

/**
 * The writes of a change's sec alert, for the change's own transaction: the change and its alert are stored together
 * or not at all (docs/decisions.md "Security alerts"). Every change alert is Transient, so it needs no key pointer.
 */
export function securityAlertWrites(
  deps: Pick<Dependencies, 'clock'>,
  client: string,
  event: RoleChanged | ClientAppChanged | TransferDestinationChanged,
): TransactOperation[] {
  return newAlertWrites(client, securityAlert(client, event), deps.clock.now()).operations;
}

/**
 * Raises the event's alert in `client` (the tenant whose security it concerns), for events that report a refusal or
 * a support-access state change. Never throws: a failed alert is logged and must not turn the refusal it reports into
 * a 500. A change that must not happen unreported puts `securityAlertWrites` in its own transaction instead.
 */
export async function raiseSecurityAlert(deps: SecurityAlertDeps, client: string, event: SecurityEvent): Promise<void> {
  try {
    await raiseAlert(deps, client, securityAlert(client, event));
  } catch (error) {
    deps.logger.error('security alert not raised', { client, event: event.kind, error });
  }
}

/** The HTTP pipeline's security alerts port (lambdas/core/ports/security-alerts.ts), wired by lambdas/api-recorders.ts. */
export const securityAlerts: SecurityAlerts = { raise: raiseSecurityAlert };
