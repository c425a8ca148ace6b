import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { PAYLOAD_TYPES } from '../../constants/payloads.ts';
import { formatIssues } from '../messages.ts';
import { RetentionPolicyRequest, LegalHoldRequest, SupportAccessDecision } from './account-data.ts';
import { AlertCloseRequest, NotificationEvent } from './alerts.ts';
import { ClientAppRequest } from './client-apps.ts';
import { CommentPostRequest, CommentPutRequest } from './comments.ts';
import { DeviceAlertRequest, DeviceAuthRequest, DeviceCommandReport, PayloadRegistration } from './device-auth.ts';
import { DeviceUserRequest } from './device-users.ts';
import { DeviceCommandRequest } from './devices.ts';
import { GroupRequest, TagDefinitionRequest, tagValueAllowed } from './groups.ts';
import { LicenceLimits } from './licences.ts';
import { DeviceLogUpload } from './logs.ts';
import { BlockedCallMeta, CallMeta, LegacyMessageMeta, MessageMeta } from './payloads.ts';
import { RoleRequest } from './roles.ts';
import { TransferConfigRequest } from './transfers.ts';

const lines = (schema: z.ZodType, value: unknown): string[] => {
  const result = schema.safeParse(value);
  return result.success ? [] : formatIssues(result.error, 'body');
};

const alertPermissions = { ops_read: true, ops_write: false, sec_read: true, sec_write: false };

describe('role rules', () => {
  const role = { permissions: [{ actions_matching: 'devices:*' }], alert_permissions: alertPermissions };
  it('needs at least 1 permission and defaults payload types to all', () => {
    const parsed = RoleRequest.parse(role);
    expect(parsed.payload_types).toEqual([...PAYLOAD_TYPES]);
    expect(parsed.permissions[0]?.is_denied).toBe(false);
    expect(lines(RoleRequest, { ...role, permissions: [] })).toEqual(['body.permissions: Must contain at least 1 item']);
  });
  it('requires alert permissions', () => {
    expect(lines(RoleRequest, { permissions: role.permissions })).toEqual(['body.alert_permissions: The alert_permissions field is required.']);
  });
  it('needs at least 1 property in a condition', () => {
    const withCondition = (condition: object) => ({ ...role, permissions: [{ actions_matching: '*', conditions: [condition] }] });
    expect(lines(RoleRequest, withCondition({ names_matching: 'sales-*' }))).toEqual([]);
    expect(lines(RoleRequest, withCondition({ is_denied: true }))).toEqual(['body.permissions.0.conditions.0: A condition needs at least 1 property']);
    expect(lines(RoleRequest, withCondition({}))).toEqual(['body.permissions.0.conditions.0: A condition needs at least 1 property']);
  });
  it('rejects unknown payload types and fields', () => {
    expect(lines(RoleRequest, { ...role, payload_types: ['Fax'] })[0]).toMatch(/^body\.payload_types\.0: Must be one of/);
    expect(lines(RoleRequest, { ...role, is_system: true })).toEqual(['body.is_system: This field is not allowed.']);
  });
});

describe('group and tag rules', () => {
  const tag = (n: number) => ({ tag_key: `k${n}`, tag_value: 'v' });
  it('allows at most 50 tags, unique by key', () => {
    expect(lines(GroupRequest, { tags: Array.from({ length: 50 }, (_, i) => tag(i)) })).toEqual([]);
    expect(lines(GroupRequest, { tags: Array.from({ length: 51 }, (_, i) => tag(i)) })).toEqual(['body.tags: Must contain between 0 and 50 items']);
    expect(lines(GroupRequest, { tags: [tag(1), { tag_key: 'k1', tag_value: 'other' }] })).toEqual(['body.tags: Must not contain duplicates']);
  });
  it('bounds tag values at 255 characters', () => {
    expect(lines(GroupRequest, { tags: [{ tag_key: 'k', tag_value: 'x'.repeat(256) }] })).toEqual(['body.tags.0.tag_value: Must be at most 255 characters']);
  });
  it('a required tag needs a default value and a non-empty value list', () => {
    const message = 'body.default_value: A required tag needs a default value and a non-empty value list';
    expect(lines(TagDefinitionRequest, { tag_values: ['a'], is_required: true, default_value: 'a' })).toEqual([]);
    expect(lines(TagDefinitionRequest, { tag_values: ['a'], is_required: true })).toEqual([message]);
    expect(lines(TagDefinitionRequest, { tag_values: [], is_required: true, default_value: 'a' })).toContain(message);
    expect(lines(TagDefinitionRequest, { tag_values: null, is_required: true, default_value: 'a' })).toEqual([message]);
  });
  it('matches values against the enumeration: null is free text, empty allows none', () => {
    expect(tagValueAllowed({ tag_values: null }, 'anything')).toBe(true);
    expect(tagValueAllowed({ tag_values: [] }, 'anything')).toBe(false);
    expect(tagValueAllowed({ tag_values: ['a', 'b'] }, 'b')).toBe(true);
    expect(tagValueAllowed({ tag_values: ['a', 'b'] }, 'c')).toBe(false);
    expect(lines(TagDefinitionRequest, { tag_values: ['a'], default_value: 'z' })).toEqual(['body.default_value: Must be one of the values allowed by the tag definition']);
  });
});

describe('payload meta', () => {
  const party = { phone_number: '+441234567890', direction: 'O', duration: 10 };
  const common = { payload_time: '2024-05-01T10:00:00Z' };
  it('calls need 1 to 1000 second parties; blocked calls allow 0', () => {
    expect(lines(CallMeta, { ...common, second_parties: [party] })).toEqual([]);
    expect(lines(CallMeta, { ...common, second_parties: [] })).toEqual(['body.second_parties: Must contain between 1 and 1000 items']);
    expect(lines(BlockedCallMeta, { ...common, second_parties: [], reason_for_blocking: 'blacklist' })).toEqual([]);
    expect(lines(CallMeta, { ...common, second_parties: Array.from({ length: 1001 }, () => party) })).toEqual([
      'body.second_parties: Must contain between 1 and 1000 items',
    ]);
  });
  it('call duration and size are integers at least 0', () => {
    expect(lines(CallMeta, { ...common, size: -1, second_parties: [{ ...party, duration: 1.5 }] })).toEqual([
      'body.size: Must be at least 0',
      'body.second_parties.0.duration: Please provide a valid integer for the field.',
    ]);
  });
  it('messages need at least 1 party; the old form has a single second_party', () => {
    expect(lines(MessageMeta, { ...common, direction: 'I', message_parties: [{ phone_number: '+44' }] })).toEqual([]);
    expect(lines(MessageMeta, { ...common, direction: 'I', message_parties: [] })).toEqual(['body.message_parties: Must contain at least 1 item']);
    expect(lines(LegacyMessageMeta, { ...common, direction: 'CC', second_party: { phone_number: null } })).toEqual([]);
  });
});

describe('device bodies', () => {
  it('log upload needs at least 1 log', () => {
    const log = { log_level: 'INFO', log_datetime: '2024-05-01 10:00:00', log_message: 'started' };
    expect(lines(DeviceLogUpload, { logs: [log] })).toEqual([]);
    expect(lines(DeviceLogUpload, { logs: [] })).toEqual(['body.logs: Must contain at least 1 item']);
    expect(lines(DeviceLogUpload, { logs: [{ ...log, log_level: 'TRACE', log_message: '' }] })).toEqual([
      'body.logs.0.log_level: Must be one of: DEBUG, INFO, WARN, ERROR',
      'body.logs.0.log_message: Must be at least 1 character',
    ]);
  });
  it('authentication takes the sealed reference, phone numbers and IMEIs', () => {
    const auth = { ulid_encrypted: 'c2VhbGVk', phone_numbers: ['+447700900000'], imeis: ['490154203237518'] };
    expect(lines(DeviceAuthRequest, auth)).toEqual([]);
    expect(lines(DeviceAuthRequest, { ...auth, imeis: ['123'] })).toEqual(['body.imeis.0: Must be exactly 15 digits']);
    expect(lines(DeviceAuthRequest, { ...auth, ulid_encrypted: 'not base64!' })).toEqual(['body.ulid_encrypted: Must be a base64 string']);
  });
  it('payload registration needs a SHA-256 hex checksum', () => {
    const registration = {
      payload_reference: '01HZXABCDEFGHJKMNPQRSTVWXY',
      payload_type: 'Call',
      encrypted_dek: 'ZGVr',
      iv: 'aXY=',
      key_id: 'local-key-1',
      meta: 'bWV0YQ==',
      checksum: 'a'.repeat(64),
    };
    expect(lines(PayloadRegistration, registration)).toEqual([]);
    expect(lines(PayloadRegistration, { ...registration, checksum: 'xyz' })).toEqual(['body.checksum: Must be a SHA-256 hex digest']);
    expect(lines(PayloadRegistration, { ...registration, checksum: undefined })).toEqual(['body.checksum: The checksum field is required.']);
  });
  it('a device reports only Acknowledged, Completed or Failed', () => {
    expect(lines(DeviceCommandReport, { state: 'Completed' })).toEqual([]);
    expect(lines(DeviceCommandReport, { state: 'Sent' })).toEqual(['body.state: Must be one of: Acknowledged, Completed, Failed']);
  });
  it('a device alert has subject, message and severity', () => {
    expect(lines(DeviceAlertRequest, { subject: 's', message: 'm', severity: 'High' })).toEqual([]);
    expect(lines(DeviceAlertRequest, { subject: 's', message: 'm', severity: 'Critical' })).toEqual(['body.severity: Must be one of: Low, Medium, High']);
  });
  it('commands are from the known list', () => {
    expect(lines(DeviceCommandRequest, { command: 'sync_data' })).toEqual([]);
    expect(lines(DeviceCommandRequest, { command: 'wipe' })[0]).toMatch(/^body\.command: Must be one of: sync_data/);
  });
});

describe('admin bodies', () => {
  it('device users need a service list and default the expected device count to 1', () => {
    const user = { group: 'sales', services: ['calls'], email: 'a@b.co', first_name: 'Ann', surname: 'Lee' };
    expect(DeviceUserRequest.parse(user).expected_device_count).toBe(1);
    expect(lines(DeviceUserRequest, { ...user, services: [] })).toEqual(['body.services: Must contain at least 1 item']);
    expect(lines(DeviceUserRequest, { ...user, first_name: ' Ann' })).toEqual(['body.first_name: Cannot start with leading space, cannot contain a comma']);
  });
  it('licence limits are 0 to 100000 per service and unknown services are refused', () => {
    const limits = { mms: 0, sms: 1, calls: 100000, interviews: 2, gps: 3, photos: 4, rcs: 5, videos: 6 };
    expect(lines(LicenceLimits, limits)).toEqual([]);
    expect(lines(LicenceLimits, { ...limits, calls: 100001 })).toEqual(['body.calls: Must be a number between 0 and 100000']);
    expect(lines(LicenceLimits, { ...limits, fax: 1 })).toEqual(['body.fax: This field is not allowed.']);
  });
  it('client apps need https issuer and jwks_uri and an audience of 5+', () => {
    const app = { oidc_config: { issuer: 'https://idp.example.com', audience: 'verity', jwks_uri: 'https://idp.example.com/jwks' }, roles: ['reader'], cidr_ranges: ['10.0.0.0/8'] };
    expect(lines(ClientAppRequest, app)).toEqual([]);
    expect(lines(ClientAppRequest, { ...app, oidc_config: { issuer: 'http://idp', audience: 'abc', jwks_uri: 'https://idp/jwks' }, cidr_ranges: ['10.0.0.0'] })).toEqual([
      'body.oidc_config.issuer: Must start with https://',
      'body.oidc_config.audience: Must be at least 5 characters',
      'body.cidr_ranges.0: Must be a valid CIDR range',
    ]);
  });
  it('alert bulk close takes 1 to 100 unique references and the Clear action', () => {
    const ref = '01HZXABCDEFGHJKMNPQRSTVWXY';
    expect(lines(AlertCloseRequest, { alert_references: [ref], action: 'Clear' })).toEqual([]);
    expect(lines(AlertCloseRequest, { alert_references: [ref, ref], action: 'Delete' })).toEqual([
      'body.alert_references: Must not contain duplicates',
      'body.action: Must be one of: Clear',
    ]);
    expect(lines(NotificationEvent, { scope: 'ops', severity: 'Low', message: 'maintenance' })).toEqual([]);
  });
  it('support access decisions are approved, rejected or revoked', () => {
    expect(lines(SupportAccessDecision, { approval_state: 'approved' })).toEqual([]);
    expect(lines(SupportAccessDecision, { approval_state: 'expired' })[0]).toMatch(/^body\.approval_state: Must be one of/);
  });
});

describe('client bodies', () => {
  it('comments: post needs a message; put makes both optional', () => {
    expect(lines(CommentPostRequest, { message: 'hi', comment_duration: { start_time: 0, duration: 5 } })).toEqual([]);
    expect(lines(CommentPostRequest, {})).toEqual(['body.message: The message field is required.']);
    expect(lines(CommentPutRequest, {})).toEqual([]);
  });
  it('retention days are at least 0', () => {
    expect(lines(RetentionPolicyRequest, { AlertData: { delete_after_days: 30 }, PayloadData: [{ payload_type: 'Call', destroy_after_days: 3650 }] })).toEqual([]);
    expect(lines(RetentionPolicyRequest, { GpsData: { delete_after_days: -1 } })).toEqual(['body.GpsData.delete_after_days: Must be at least 0']);
    expect(RetentionPolicyRequest.parse({ PayloadData: [{ payload_type: 'SMS' }] }).PayloadData?.[0]?.retention_timestamp).toBe('payload_time');
  });
  it("legal hold bodies take the spec's target and target_type, and nothing else", () => {
    expect(lines(LegalHoldRequest, {})).toEqual([]);
    expect(lines(LegalHoldRequest, { target: 'alice', target_type: 'DeviceUser' })).toEqual([]);
    expect(lines(LegalHoldRequest, { target_type: 'Robot' })[0]).toMatch(/^body\.target_type: /);
    expect(lines(LegalHoldRequest, { owner: 'x' })).toEqual(['body.owner: This field is not allowed.']);
  });
  it('transfer configs pick their params by target type', () => {
    const s3 = {
      target_type: 'S3',
      transfer_type: 'Payload',
      payload_types: ['Call'],
      schedule: 'rate(1 day)',
      params: { destination: 's3://bucket/x', iam_role_arn: 'arn:aws:iam::123456789012:role/Transfer' },
    };
    expect(lines(TransferConfigRequest, s3)).toEqual([]);
    expect(lines(TransferConfigRequest, { ...s3, schedule: 'daily', params: { destination: 'bucket', iam_role_arn: 'x' } })).toEqual([
      'body.schedule: Must be a valid cron or rate expression',
      'body.params.destination: Must start with s3://',
      'body.params.iam_role_arn: Must be a valid AWS IAM role ARN',
    ]);
    const sftp = { ...s3, target_type: 'SFTP', params: { server: 'sftp.example.com', root_directory: 'exports', username: 'u' } };
    expect(lines(TransferConfigRequest, sftp)).toEqual(['body.params.root_directory: Must start with a leading slash "/"']);
    expect(lines(TransferConfigRequest, { ...s3, payload_types: ['Diagnostics'] })[0]).toMatch(/^body\.payload_types\.0: Must be one of/);
    expect(lines(TransferConfigRequest, { ...s3, pgp_key: 'nope' })).toEqual(['body.pgp_key: must be a valid PGP key']);
  });
});
