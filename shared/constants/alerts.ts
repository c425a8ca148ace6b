import * as z from 'zod';

export const ALERT_SEVERITIES = ['Low', 'Medium', 'High'] as const;
export const AlertSeverity = z.enum(ALERT_SEVERITIES);
export type AlertSeverity = z.infer<typeof AlertSeverity>;

/** ops: operational; sec: security. Read and write (clear) permissions are per scope. */
export const ALERT_SCOPES = ['ops', 'sec'] as const;
export const AlertScope = z.enum(ALERT_SCOPES);
export type AlertScope = z.infer<typeof AlertScope>;

export const ALERT_TYPES = [
  'AccountAlert',
  'AndroidAlert',
  'DeviceAlert',
  'DeviceUserAlert',
  'LambdaAlert',
  'MigrationAlert',
  'Notification',
  'PayloadAlert',
  'PortalUserAlert',
  'SupervisionAlert',
  'TransferAlert',
] as const;
export const AlertType = z.enum(ALERT_TYPES);
export type AlertType = z.infer<typeof AlertType>;

/** Triggered, then Cleared by an authorised user; a new occurrence triggers a cleared alert afresh. */
export const ALERT_STATES = ['Triggered', 'Cleared'] as const;
export const AlertState = z.enum(ALERT_STATES);
export type AlertState = z.infer<typeof AlertState>;

/** Transient: a new alert each time. Scoped: a new alert only if none exists for that scope. */
export const ALERT_KEY_TYPES = ['Transient', 'Scoped'] as const;
export const AlertKeyType = z.enum(ALERT_KEY_TYPES);
export type AlertKeyType = z.infer<typeof AlertKeyType>;

/** The only bulk close action on alerts. */
export const ALERT_CLOSE_ACTIONS = ['Clear'] as const;
export const AlertCloseAction = z.enum(ALERT_CLOSE_ACTIONS);
export type AlertCloseAction = z.infer<typeof AlertCloseAction>;

/** Which timestamp an alert list's date range filters on. */
export const ALERT_DATE_FILTERS = ['first_occurrence', 'last_occurrence'] as const;
export const AlertDateFilter = z.enum(ALERT_DATE_FILTERS);
export type AlertDateFilter = z.infer<typeof AlertDateFilter>;

/** Entity types an alert (or activity) may relate to. */
export const ENTITY_TYPES = [
  'Device',
  'DeviceUser',
  'Migration',
  'Payload',
  'PortalUser',
  'SupportAccessRequest',
  'Transfer',
] as const;
export const EntityType = z.enum(ENTITY_TYPES);
export type EntityType = z.infer<typeof EntityType>;
