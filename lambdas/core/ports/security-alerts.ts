import type { Dependencies } from '../dependencies.ts';

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

/** The refusals the HTTP pipeline reports as security events. */
export type RefusalEvent = CidrRefused | ClientAppTokenRefused;

export type SecurityAlertDependencies = Pick<Dependencies, 'table' | 'clock' | 'logger'>;

/**
 * Security alerts as the HTTP pipeline raises them (docs/decisions.md "Security alerts"). Implemented by the alerts
 * area (lambdas/alerts/security-events.ts) and handed to each API function's pipeline by its handler
 * (lambdas/api-recorders.ts). `raise` never throws: a failed alert is logged and must not turn the refusal it
 * reports (a 401 or 403) into a 500.
 */
export interface SecurityAlerts {
  /** Raises the event's alert in `client`, the tenant whose security it concerns. */
  raise(deps: SecurityAlertDependencies, client: string, event: RefusalEvent): Promise<void>;
}
