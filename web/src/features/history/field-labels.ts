import { REGULATORY_RULE_NAMES } from '#shared/constants/regulatory-rules.ts';
import type { VersionedEntity } from '#shared/contract/entities/record-versions.ts';
import {
  ALERT_PERMISSION_LABELS,
  LEGAL_HOLD_TARGET_LABELS,
  PAYLOAD_TYPE_LABELS,
  RETENTION_RECORD_TYPE_LABELS,
  RETENTION_TIMESTAMP_LABELS,
  SERVICE_LABELS,
} from '../../lib/labels.ts';

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
  // A group and a tag definition (the groups and tags screens' labels).
  group_reference: 'Group name',
  tags: 'Tag',
  tag_key: 'Key',
  tag_value: 'Value',
  tag_values: 'Allowed values',
  is_required: 'Required',
  default_value: 'Default value',
  // A legal hold (the holds list's labels).
  target: 'Held person',
  target_type: 'Target',
  is_active: 'Active',
  placed_by_cases: 'Placed by cases',
  // A device user (their page's labels), and a device's assignment (who holds it, copied from them).
  device_user_reference: 'Device user',
  first_name: 'First name',
  surname: 'Surname',
  email: 'Email',
  services: 'Services',
  expected_device_count: 'Expected devices',
  onboard_date: 'Onboarded',
  offboard_date: 'Offboarded',
  is_legacy: 'Legacy platform',
  // A transfer configuration (its facts' labels); a password is only ever a marker, never its value.
  transfer_config_reference: 'Configuration',
  transfer_type: 'Delivers',
  transfer_file_format: 'File format',
  schedule: 'Schedule (UTC)',
  pgp_key: 'PGP key',
  params: 'Target settings',
  destination: 'Destination',
  iam_role_arn: 'IAM role ARN',
  server: 'Server',
  port: 'Port',
  root_directory: 'Root directory',
  username: 'Username',
  host_key_fingerprint: 'Host key fingerprint',
  sealed_zip_password: 'Zip password',
  sealed_sftp_password: 'SFTP password',
  // A client app (its screen's labels).
  app_reference: 'App',
  oidc_config: 'Identity provider',
  issuer: 'Issuer',
  audience: 'Audience',
  jwks_uri: 'Signing keys address (JWKS)',
  roles: 'Roles',
  // The account defaults (the completeness settings' labels) and the migration settings (the import switches).
  user_group: 'Default group',
  role: 'Default role',
  completeness_grace_hours: 'Grace before Missing (hours)',
  silent_device_hours: 'Silent after (hours)',
  disable_onboarding: 'Do not onboard device users',
  disable_offboarding: 'Do not offboard device users',
  disable_payloads: 'Do not load new recordings',
  // A supervision policy (the policy editor's labels).
  policy_reference: 'Policy',
  kind: 'Kind',
  is_enabled: 'Enabled',
  scope: 'Scope',
  group_conditions: 'Group condition',
  device_user_references: 'People',
  terms: 'Terms',
  sample_percent: 'Sample (%)',
  sample_minimum: 'Minimum per person and day',
  review_days: 'Days to review',
  sampling_seed: 'Sampling key',
  policy_version: 'Version',
  // A supervision review item (its page's labels).
  item_reference: 'Recording',
  payload_time: 'Recorded',
  device_reference: 'Device',
  device_user_name: 'Person',
  hits: 'Hit',
  term: 'Term',
  field: 'Text searched',
  matches: 'Match',
  start: 'From character',
  end: 'To character',
  sample_value: 'Sample value',
  is_minimum_top_up: 'Chosen to reach the daily minimum',
  state: 'State',
  assignee: 'Assignee',
  due_at: 'Due',
  disposition: 'Disposition',
  note: 'Note',
  item_version: 'Version',
};

/**
 * Where one field name means another thing in one kind: the label that kind's screen uses instead. Looked up first.
 */
export const KIND_FIELD_LABELS: Readonly<Partial<Record<VersionedEntity, Readonly<Record<string, string>>>>> = {
  'legal-hold': { created_at: 'First placed', updated_at: 'Last placed or released', updated_by: 'Last placed or released by' },
  'device-user': { device_user_reference: 'Reference', is_active: 'Onboarded' },
  'device-assignment': { device_user_reference: 'Held by (device user)', first_name: 'Holder’s first name', surname: 'Holder’s surname', email: 'Holder’s email' },
  'supervision-item': { raised_at: 'Raised', closed_by: 'Closed by', kind: 'Hit kind' },
  'supervision-policy': { payload_types: 'Recording types' },
};

/** Fields whose values are wire values with words of their own (a list's items, or one value). */
export const VALUE_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  payload_type: PAYLOAD_TYPE_LABELS,
  payload_types: PAYLOAD_TYPE_LABELS,
  retention_timestamp: RETENTION_TIMESTAMP_LABELS,
  regulatory_rules: REGULATORY_RULE_NAMES,
  services: SERVICE_LABELS,
  // A hold's target kind and a transfer's target kind never share a value.
  target_type: { ...LEGAL_HOLD_TARGET_LABELS, S3: 'Amazon S3', SFTP: 'SFTP' },
  transfer_type: { Payload: 'Recordings', Vantage: 'Vantage report' },
  transfer_file_format: { Uncompressed: 'Uncompressed files', Zipped: 'Zip archive', ZippedWithPassword: 'Zip archive with password' },
};

/** A field's label: its kind's own where it has one, else the field's own, else its name in words. */
export function fieldLabel(name: string, entity?: VersionedEntity): string {
  const own = entity === undefined ? undefined : KIND_FIELD_LABELS[entity];
  if (own !== undefined && Object.hasOwn(own, name)) return own[name] as string;
  if (Object.hasOwn(FIELD_LABELS, name)) return FIELD_LABELS[name] as string;
  const words = name.replaceAll('_', ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A wire value in words when its field has them, else the value itself. */
export function valueLabel(field: string, value: string): string {
  const labels = VALUE_LABELS[field];
  return labels !== undefined && Object.hasOwn(labels, value) ? (labels[value] as string) : value;
}
