import { Actor } from './actor.ts';
import * as z from 'zod';
import { AlertCloseAction, AlertKeyType, AlertScope, AlertSeverity, AlertState, AlertType } from '../../constants/alerts.ts';
import { NOTIFY_CLIENTS_MAX } from '../bounds.ts';
import { AlertReferenceList, ClientId, text } from '../fields.ts';
import { itemsAtMost, lengthAtMost } from '../messages.ts';
import { Timestamp } from './common.ts';

export const AlertOccurrence = z.object({ time: Timestamp, message: z.string() });

export const RelatedEntity = z.object({ api_link: z.string().optional(), page_link: z.string().optional() });

export const Alert = z.object({
  client: z.string().optional(),
  alert_reference: z.string(),
  alert_scope: AlertScope,
  alert_type: AlertType,
  alert_subject: z.string(),
  alert_key: z.string().optional(),
  alert_key_type: AlertKeyType.optional(),
  alert_message: z.string(),
  alert_state: AlertState,
  alert_severity: AlertSeverity,
  expires_after: Timestamp.optional(),
  cleared_reason: z.string().optional(),
  cleared_at: Timestamp.optional(),
  /** Who cleared it, by their stable reference (./actor.ts); `cleared_by_actor` names them as they were then. */
  cleared_by: z.string().optional(),
  cleared_by_actor: Actor.optional(),
  api_action: z.string().optional(),
  related_entities: z.array(RelatedEntity).optional(),
  occurrences: z.array(AlertOccurrence).optional(),
  /** Comma-delimited portal users who dismissed the alert. */
  dismissed_by: z.string().optional(),
  /** Who dismissed it, as each was named when they did (beside `dismissed_by`'s stable keys). */
  dismissed_by_actors: z.array(Actor).optional(),
  first_occurrence: Timestamp,
  last_occurrence: Timestamp,
  related_entity_string: z.string().optional(),
});
export type Alert = z.infer<typeof Alert>;

/** Count of non-dismissed Triggered alerts per scope and severity. */
export const AlertSummary = z.object({ scope: AlertScope, severity: AlertSeverity, count: z.int().min(0) });
export type AlertSummary = z.infer<typeof AlertSummary>;

export const AlertSummaryResponse = z.object({ data: z.array(AlertSummary) });

/** Staff broadcast: goes to the given clients, or all when `clients` is absent. */
export const NotificationEvent = z.strictObject({
  scope: AlertScope,
  severity: AlertSeverity,
  message: text(1, 4000),
  clients: z.array(ClientId).max(NOTIFY_CLIENTS_MAX, { error: itemsAtMost(NOTIFY_CLIENTS_MAX) }).optional(),
  /** When the alerts clear themselves (an ISO time; at most 64 characters). */
  expires_after: z.string().max(64, { error: lengthAtMost(64) }).optional(),
});
export type NotificationEvent = z.infer<typeof NotificationEvent>;

export const AlertPermissions = z.object({
  ops_read: z.boolean(),
  ops_write: z.boolean(),
  sec_read: z.boolean(),
  sec_write: z.boolean(),
});
export type AlertPermissions = z.infer<typeof AlertPermissions>;

/** Bulk close: 1 to 100 unique alert references; the only action is Clear. */
export const AlertCloseRequest = z.strictObject({
  alert_references: AlertReferenceList,
  action: AlertCloseAction,
  cleared_reason: text(1, 1000).optional(),
});
export type AlertCloseRequest = z.infer<typeof AlertCloseRequest>;

/** Bulk dismiss for the calling user: 1 to 100 unique alert references. */
export const AlertDismissRequest = z.strictObject({ alert_references: AlertReferenceList });
export type AlertDismissRequest = z.infer<typeof AlertDismissRequest>;

/** Per-reference outcome of a bulk alert action. */
export const BulkResult = z.object({
  data: z.array(z.object({ reference: z.string(), ok: z.boolean(), message: z.string().optional() })),
});
export type BulkResult = z.infer<typeof BulkResult>;
