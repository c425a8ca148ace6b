import { describe, expect, it } from 'vitest';
import { findEndpoint } from '#shared/contract/registry.ts';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import { ValidationError } from '../errors.ts';
import { eventFor } from '../testing/http-events.ts';
import { parseRequest } from './parse-request.ts';

/**
 * Every request body the spec names (point 7 "Bodies named", and the entities of point 3 that the endpoint lists
 * write), sent with the spec's own field names, through the router's request parsing against the contract: a client
 * written from the spec is understood. A body may repeat its path's parameters (the spec's entities carry their
 * keys): accepted when equal, refused with a `body.<field>: …` line when they contradict the path.
 */
const REF = '01M8HC1KH3NF4Y245S0915CPRF';
const B64 = Buffer.from('sealed').toString('base64');
const SHA = 'a'.repeat(64);

interface SpecBody {
  /** The endpoint, by contract id. */
  id: string;
  /** Path parameters (the `{client}` of admin and client paths is added). */
  path: Record<string, string>;
  /** The spec's field set, with valid values. */
  body: Record<string, unknown>;
  /** A body field repeating a path parameter, and a value contradicting it. */
  contradiction?: [field: string, value: unknown];
}

const SPEC_BODIES: SpecBody[] = [
  // Point 7: "device command (command, params)".
  { id: 'admin.devices.commands.send', path: { device_reference: 'dev-1' }, body: { command: 'sms_auto_response', params: { enabled: true, message: 'Driving' } } },
  // "comment post (message, optional comment_duration)"; "comment put (both optional)".
  { id: 'client.payloads.comments.create', path: { payload_reference: REF }, body: { message: 'Checked', comment_duration: { start_time: 6, duration: 3 } } },
  { id: 'client.payloads.comments.create', path: { payload_reference: REF }, body: { message: 'Checked' } },
  { id: 'client.payloads.comments.update', path: { payload_reference: REF, comment_id: REF }, body: {} },
  { id: 'client.payloads.comments.update', path: { payload_reference: REF, comment_id: REF }, body: { message: 'Edited', comment_duration: { start_time: 1, duration: 2 } } },
  // "device log upload (logs)", each log with DeviceLog's fields (point 3) but the id the server gives it.
  {
    id: 'device.logs.upload',
    path: {},
    body: {
      logs: [
        { log_class: 'Recorder', log_level: 'INFO', log_datetime: '2026-11-27T07:59:00Z', local_timezone: 'Europe/London', payload_reference: REF, log_message: 'Recording started' },
      ],
    },
  },
  // "telemetry, GPS and payload upload (encrypted_dek, iv, key_id, meta, and checksum for payloads)".
  { id: 'device.telemetry.upload', path: {}, body: { encrypted_dek: B64, iv: B64, key_id: 'kek-1', meta: B64 } },
  { id: 'device.gps.upload', path: {}, body: { encrypted_dek: B64, iv: B64, key_id: 'kek-1', meta: B64 } },
  // The payload registration also names the payload (its reference and type, as the Payload entity carries them):
  // the device-facing paths are ours (the spec does not show them), docs/device-protocol.md.
  { id: 'device.payloads.register', path: {}, body: { encrypted_dek: B64, iv: B64, key_id: 'kek-1', meta: B64, checksum: SHA, payload_reference: REF, payload_type: 'Call' } },
  // "device alert request (subject, message, severity)".
  { id: 'device.alerts.raise', path: {}, body: { subject: 'Storage low', message: 'Less than 5% free', severity: 'High' } },
  // "legal hold request (target, target_type)".
  { id: 'client.legal-holds.put', path: { target_type: 'DeviceUser', target: 'du-alice' }, body: { target: 'du-alice', target_type: 'DeviceUser' }, contradiction: ['target', 'du-bram'] },
  { id: 'client.legal-holds.put', path: { target_type: 'DeviceUser', target: 'du-alice' }, body: { target: 'du-alice', target_type: 'DeviceUser' }, contradiction: ['target_type', 'PortalUser'] },
  { id: 'client.legal-holds.put', path: { target_type: 'PortalUser', target: 'officer-1' }, body: { target: 'officer-1', target_type: 'PortalUser', is_active: false } },
  // "transfer config request": TransferConfig's fields (point 3), no target type (its params say which), the
  // secured data write-only.
  {
    id: 'client.transfer-configs.create',
    path: { transfer_config_reference: 'nightly-s3' },
    body: {
      transfer_config_reference: 'nightly-s3',
      transfer_type: 'Payload',
      payload_types: ['Call', 'SMS'],
      schedule: 'rate(1 day)',
      transfer_file_format: 'Zipped',
      params: { destination: 's3://evidence-bucket/verity', iam_role_arn: 'arn:aws:iam::123456789012:role/VerityTransfer' },
      is_active: true,
    },
    contradiction: ['transfer_config_reference', 'other-config'],
  },
  {
    id: 'client.transfer-configs.update',
    path: { transfer_config_reference: 'nightly-sftp' },
    body: {
      transfer_config_reference: 'nightly-sftp',
      transfer_type: 'Payload',
      payload_types: ['Call'],
      schedule: 'cron(0 3 * * ? *)',
      transfer_file_format: 'ZippedWithPassword',
      params: { server: 'sftp.example.com', port: 22, root_directory: '/exports', username: 'verity' },
      is_active: false,
      secured_data: { zip_password: 'zip-secret', sftp_password: 'sftp-secret' },
    },
    contradiction: ['transfer_config_reference', 'nightly-s3'],
  },
  // "retention policy request": per record type delete_after_days or destroy_after_days; PayloadData entries add
  // payload_type, retention_timestamp, required_receipts, required_transfers.
  {
    id: 'client.account.retention.put',
    path: {},
    body: {
      AlertData: { delete_after_days: 90 },
      DeviceActivityData: { destroy_after_days: 365 },
      PayloadData: [{ payload_type: 'Call', destroy_after_days: 2555, retention_timestamp: 'payload_time', required_receipts: 1, required_transfers: 0 }],
      UserActivityData: { delete_after_days: 365 },
    },
  },
  // The endpoint lists' writes of point 3's entities, with the entity's key repeated from the path.
  {
    id: 'admin.roles.put',
    path: { role_reference: 'auditor' },
    body: {
      role_reference: 'auditor',
      permissions: [{ actions_matching: 'payloads:*' }],
      payload_types: ['Call'],
      cidr_ranges: [],
      alert_permissions: { ops_read: true, ops_write: false, sec_read: true, sec_write: false },
      is_alertable: false,
      description: 'Reads recordings',
    },
    contradiction: ['role_reference', 'admin'],
  },
  { id: 'admin.groups.put', path: { group_reference: 'traders' }, body: { group_reference: 'traders', tags: [] }, contradiction: ['group_reference', 'sales'] },
  {
    id: 'admin.tags.put',
    path: { tag_key: 'desk' },
    body: { tag_key: 'desk', tag_values: ['rates', 'fx'], is_required: true, default_value: 'rates' },
    contradiction: ['tag_key', 'floor'],
  },
  {
    id: 'admin.users.create',
    path: { device_user_reference: 'du-alice' },
    body: { device_user_reference: 'du-alice', group: 'traders', services: ['calls'], expected_device_count: 1, email: 'alice@example.com', first_name: 'Alice', surname: 'Archer' },
    contradiction: ['device_user_reference', 'du-bram'],
  },
  {
    id: 'admin.apps.create',
    path: { app_reference: 'archiver' },
    body: {
      app_reference: 'archiver',
      oidc_config: { issuer: 'https://login.example.com', audience: 'verity', jwks_uri: 'https://login.example.com/jwks' },
      group: 'traders',
      roles: ['admin'],
      cidr_ranges: [],
    },
    contradiction: ['app_reference', 'other-app'],
  },
  { id: 'admin.account.defaults.put', path: {}, body: { user_group: 'traders', role: 'admin', cidr_ranges: [] } },
  { id: 'client.account.migration.put', path: {}, body: { disable_onboarding: true, disable_offboarding: false, disable_payloads: false } },
  { id: 'internal.clients.supportaccess.create', path: { client: 'acme' }, body: { role: 'admin', request_description: 'Ticket 7', requested_expiry: '2026-12-01T00:00:00Z' } },
  { id: 'internal.clients.licenses.put', path: { client: 'acme' }, body: { mms: 10, sms: 10, calls: 10, interviews: 10, gps: 10, photos: 10, rcs: 10, videos: 10 } },
  { id: 'internal.alerts.notify', path: {}, body: { scope: 'ops', severity: 'Low', message: 'Maintenance tonight', clients: ['acme'], expires_after: '2026-12-01T00:00:00Z' } },
];

function endpoint(id: string): Endpoint {
  const found = findEndpoint(id);
  if (found === undefined) throw new Error(`No endpoint ${id} in the contract`);
  return found;
}

/** The `path: message` lines the router answers for this request, or [] when it accepts it. */
function problems(spec: SpecBody, body: Record<string, unknown>): string[] {
  const target = endpoint(spec.id);
  const pathParameters = target.fullPath.includes('{client}') ? { client: 'acme', ...spec.path } : spec.path;
  try {
    parseRequest(target, eventFor(target, { pathParameters, body: JSON.stringify(body) }));
    return [];
  } catch (error) {
    if (error instanceof ValidationError) return [...error.lines];
    throw error;
  }
}

describe("the spec's request bodies", () => {
  it.each(SPEC_BODIES.map((spec) => [`${spec.id} ${Object.keys(spec.body).join(', ') || '{}'}`, spec] as const))('%s is accepted', (_, spec) => {
    expect(problems(spec, spec.body)).toEqual([]);
  });

  const contradicting = SPEC_BODIES.filter((spec) => spec.contradiction !== undefined);
  it.each(contradicting.map((spec) => [`${spec.id} ${spec.contradiction?.[0]}`, spec] as const))(
    '%s contradicting the path is refused with one line naming the field',
    (_, spec) => {
      const [field, value] = spec.contradiction as [string, unknown];
      expect(problems(spec, { ...spec.body, [field]: value })).toEqual([`body.${field}: Must equal the path's ${field} (${spec.path[field]}) or be left out`]);
    },
  );

  it('leaves out what it does not know: a misspelt field is still refused', () => {
    const hold = SPEC_BODIES.find((spec) => spec.id === 'client.legal-holds.put') as SpecBody;
    expect(problems(hold, { ...hold.body, targets: 'du-alice' })).toEqual(['body.targets: This field is not allowed.']);
  });

  it("names no target when a transfer config's params fit both or neither", () => {
    const s3 = SPEC_BODIES.find((spec) => spec.id === 'client.transfer-configs.create') as SpecBody;
    const mixed = { ...s3.body, params: { destination: 's3://evidence-bucket/verity', server: 'sftp.example.com' } };
    expect(problems(s3, mixed).join('\n')).toMatch(/^body\.target_type: /m);
    expect(problems(s3, { ...s3.body, params: {} }).join('\n')).toMatch(/^body\.target_type: /m);
  });

  it('covers every body the spec names in point 7', () => {
    const named = new Set(SPEC_BODIES.map((spec) => spec.id));
    for (const id of [
      'admin.devices.commands.send',
      'client.payloads.comments.create',
      'client.payloads.comments.update',
      'device.logs.upload',
      'device.telemetry.upload',
      'device.gps.upload',
      'device.payloads.register',
      'device.alerts.raise',
      'client.legal-holds.put',
      'client.transfer-configs.create',
      'client.transfer-configs.update',
      'client.account.retention.put',
    ]) {
      expect(named.has(id), id).toBe(true);
    }
  });
});
