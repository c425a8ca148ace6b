import { REGULATORY_RULE_NAMES } from '#shared/constants/regulatory-rules.ts';
import { ALERT_PERMISSION_LABELS, PAYLOAD_TYPE_LABELS, RETENTION_RECORD_TYPE_LABELS, RETENTION_TIMESTAMP_LABELS } from '../../lib/labels.ts';

/**
 * The words a version's fields are shown by: the labels the screens that edit those records use (the role editor's,
 * the retention editor's, lib/labels.ts), one map for every kind, since field names mean the same in each. A field
 * not named here (a kind given versions later) is shown by its name in words ("transfer_mode" → "Transfer mode"),
 * never as stored.
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  // A comment (the recording's comments).
  comment_body: 'Wording',
  comment_id: 'Comment',
  comment_version: 'Version',
  comment_duration: 'Span',
  start_time: 'Starts at (seconds)',
  duration: 'Length (seconds)',
  raised_by: 'Written by',
  raised_at: 'Written',
  is_closed: 'Closed',
  closed_by: 'Closed by',
  closed_at: 'Closed',
  payload_reference: 'Recording',
  payload_type: 'Recording type',
  group: 'Group',
  // Every audited record.
  updated_by: 'Last changed by',
  updated_at: 'Last changed',
  created_by: 'Created by',
  created_at: 'Created',
  // A role (the role editor's labels).
  role_reference: 'Role name',
  description: 'Description',
  permissions: 'Rule',
  actions_matching: 'Actions',
  is_denied: 'Denies',
  is_regex: 'Regular expressions',
  conditions: 'Condition',
  names_matching: 'Group names matching',
  keys_matching: 'Tag keys matching',
  values_matching: 'Tag values matching',
  payload_types: 'Payload types',
  cidr_ranges: 'CIDR ranges',
  alert_permissions: 'Alerts',
  ...ALERT_PERMISSION_LABELS,
  is_alertable: 'Alertable: holders of this role are notified of alerts',
  is_system: 'System role',
  // The retention policy (the retention editor's labels).
  ...RETENTION_RECORD_TYPE_LABELS,
  PayloadData: 'Recordings',
  delete_after_days: 'Delete after (days)',
  destroy_after_days: 'Destroy after (days)',
  retention_timestamp: 'Counted from',
  required_receipts: 'Receipts required',
  required_transfers: 'Transfers required',
  regulatory_rules: 'Rules the account is under',
};

/** Fields whose values are wire values with words of their own (a list's items, or one value). */
export const VALUE_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  payload_type: PAYLOAD_TYPE_LABELS,
  payload_types: PAYLOAD_TYPE_LABELS,
  retention_timestamp: RETENTION_TIMESTAMP_LABELS,
  regulatory_rules: REGULATORY_RULE_NAMES,
};

/** A field's label: its own, else its name in words. */
export function fieldLabel(name: string): string {
  if (Object.hasOwn(FIELD_LABELS, name)) return FIELD_LABELS[name] as string;
  const words = name.replaceAll('_', ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A wire value in words when its field has them, else the value itself. */
export function valueLabel(field: string, value: string): string {
  const labels = VALUE_LABELS[field];
  return labels !== undefined && Object.hasOwn(labels, value) ? (labels[value] as string) : value;
}
