import { describe, expect, it } from 'vitest';
import { changeCounts, comparableRecord, compareRecords, SECRET_CHANGED, SECRET_SET, SECRET_UNCHANGED, withSecretsSettled } from './record-diff.ts';

const admin = { reference: 'u-dana', kind: 'user', name: 'Dana Admin', email: 'admin@demo.test' } as const;
const reviewer = { reference: 'u-rex', kind: 'user', name: 'Rex Reviewer', email: 'reviewer@demo.test' } as const;

/** A comment as the table stores it: keys, index keys and the entity tag beside its fields. */
const storedComment = {
  pk: 'T#demo#PAYLOAD#p1',
  sk: 'COMMENT#c1',
  entity: 'Comment',
  gsi1pk: 'T#demo#COMMENTS',
  gsi1sk: '2026-11-29T08:00:00.000Z#c1',
  comment_id: 'c1',
  comment_body: 'The caller agreed to the price',
  raised_by: 'u-dana',
  raised_by_actor: admin,
  raised_at: '2026-11-29T08:00:00.000Z',
  comment_version: 1,
  payload_reference: 'p1',
  payload_type: 'Call',
};

describe('comparableRecord', () => {
  it('leaves out storage keys and fills the contract defaults, so an absent default is no change', () => {
    const record = comparableRecord('comment', storedComment);
    for (const key of ['pk', 'sk', 'entity', 'gsi1pk', 'gsi1sk']) expect(record).not.toHaveProperty(key);
    expect(record).toMatchObject({ comment_body: 'The caller agreed to the price', is_closed: false });
    // The API's answer (is_closed: false given) compares alike with the stored version (is_closed absent).
    const rows = compareRecords(record, comparableRecord('comment', { ...storedComment, is_closed: false }));
    expect(rows.filter((row) => row.change !== 'same')).toEqual([]);
  });

  it('keeps stored fields the contract does not name, and reads a kind it has no schema for as stored less its keys', () => {
    expect(comparableRecord('comment', { ...storedComment, legacy_note: 'x' })).toHaveProperty('legacy_note', 'x');
    expect(comparableRecord('legal-hold', { pk: 'a', sk: 'b', client: 'demo', target: 'ada-1', is_active: true })).toEqual({ target: 'ada-1', is_active: true });
    // A kind read by its contract entity keeps what that does not name and gets its defaults (a group's tags).
    expect(comparableRecord('group', { pk: 'a', sk: 'b', client: 'demo', group_reference: 'g1', description: 'd' })).toEqual({ group_reference: 'g1', description: 'd', tags: [] });
  });

  it('leaves out what the API adds to a retention policy but never stores (its Object Lock facts)', () => {
    const record = comparableRecord('retention-policy', { pk: 'x', sk: 'y', setting: 'RETENTION', AlertData: { delete_after_days: 30 }, object_lock: { mode: 'COMPLIANCE' } });
    expect(record).not.toHaveProperty('object_lock');
    expect(record).not.toHaveProperty('setting');
  });
});

describe('compareRecords', () => {
  it('marks a comment edit: the wording and version changed, the editor named, the rest alike', () => {
    const before = comparableRecord('comment', storedComment);
    const after = comparableRecord('comment', {
      ...storedComment,
      comment_body: 'The caller refused the price',
      comment_version: 2,
      updated_by: 'u-rex',
      updated_by_actor: reviewer,
      updated_at: '2026-11-29T09:30:00.000Z',
    });
    const rows = compareRecords(before, after);
    const byKey = Object.fromEntries(rows.map((row) => [row.key, row]));
    expect(byKey.comment_body).toMatchObject({ label: 'Wording', change: 'changed', before: { text: 'The caller agreed to the price' }, after: { text: 'The caller refused the price' } });
    expect(byKey.comment_version).toMatchObject({ label: 'Version', change: 'changed', before: { text: '1' }, after: { text: '2' } });
    // People by name, one field for the reference and the name kept with it; never the `_actor` attribute itself.
    expect(byKey.updated_by).toMatchObject({ label: 'Last changed by', change: 'added', after: { text: 'Rex Reviewer (reviewer@demo.test)' } });
    expect(byKey.raised_by).toMatchObject({ label: 'Written by', change: 'same', after: { text: 'Dana Admin (admin@demo.test)' } });
    expect(rows.some((row) => row.key.endsWith('_actor'))).toBe(false);
    expect(byKey.payload_type).toMatchObject({ label: 'Recording type', change: 'same' });
    expect(changeCounts(rows)).toMatchObject({ changed: 2, added: 2, removed: 0 });
  });

  it('compares a role rule by rule, lists item by item, labelled as the role editor labels them', () => {
    const role = {
      role_reference: 'auditors',
      permissions: [{ actions_matching: 'payloads:List', is_denied: false, is_regex: false }],
      payload_types: ['Call', 'SMS'],
      cidr_ranges: [],
      alert_permissions: { ops_read: true, ops_write: false, sec_read: false, sec_write: false },
      is_alertable: false,
    };
    const changed = {
      ...role,
      permissions: [{ actions_matching: 'payloads:*', is_denied: false, is_regex: false }, { actions_matching: 'comments:List', is_denied: true, is_regex: false }],
      payload_types: ['Call', 'Interview'],
      alert_permissions: { ...role.alert_permissions, sec_read: true },
    };
    const rows = compareRecords(comparableRecord('role', role), comparableRecord('role', changed));
    const byKey = Object.fromEntries(rows.map((row) => [row.key, row]));
    expect(byKey['permissions.1.actions_matching']).toMatchObject({ label: 'Rule 1 › Actions', change: 'changed', before: { text: 'payloads:List' }, after: { text: 'payloads:*' } });
    expect(byKey['permissions.2.actions_matching']).toMatchObject({ label: 'Rule 2 › Actions', change: 'added' });
    expect(byKey['permissions.2.is_denied']).toMatchObject({ label: 'Rule 2 › Denies', change: 'added', after: { text: 'Yes' } });
    expect(byKey.payload_types).toMatchObject({ label: 'Payload types', change: 'changed', before: { items: ['Call', 'SMS'] }, after: { items: ['Call', 'Interview'] } });
    expect(byKey['alert_permissions.sec_read']).toMatchObject({ label: 'Alerts › Read security alerts', change: 'changed', before: { text: 'No' }, after: { text: 'Yes' } });
    expect(byKey.cidr_ranges).toMatchObject({ change: 'same', after: { text: 'None' } });
  });

  it('matches a retention policy’s recording entries by their type, not their position, and words the periods', () => {
    const policy = {
      AlertData: { delete_after_days: 30 },
      PayloadData: [
        { payload_type: 'Call', delete_after_days: 2555, retention_timestamp: 'payload_time', required_receipts: 0, required_transfers: 0 },
        { payload_type: 'SMS', delete_after_days: 2555, retention_timestamp: 'payload_time', required_receipts: 0, required_transfers: 0 },
      ],
    };
    const changed = {
      AlertData: { delete_after_days: 60 },
      // Reordered, and the SMS entry's period shortened: only that is a change.
      PayloadData: [
        { payload_type: 'SMS', delete_after_days: 2190, retention_timestamp: 'processed_at', required_receipts: 0, required_transfers: 0 },
        { payload_type: 'Call', delete_after_days: 2555, retention_timestamp: 'payload_time', required_receipts: 0, required_transfers: 0 },
      ],
    };
    const rows = compareRecords(comparableRecord('retention-policy', policy), comparableRecord('retention-policy', changed));
    const differing = rows.filter((row) => row.change !== 'same').map((row) => [row.label, row.before?.text, row.after?.text]);
    expect(differing).toEqual([
      ['Alerts › Delete after (days)', '30', '60'],
      ['Recordings › SMS › Delete after (days)', '2555', '2190'],
      ['Recordings › SMS › Counted from', 'Recorded', 'Processed'],
    ]);
  });

  it('shows every field removed against a record since deleted, and added against one not yet there', () => {
    const record = { role_reference: 'gone', description: 'Old role' };
    expect(compareRecords(record, undefined).map((row) => row.change)).toEqual(['removed', 'removed']);
    expect(compareRecords(undefined, record).map((row) => row.change)).toEqual(['added', 'added']);
  });

  it('names a field no label map knows in words, never as stored', () => {
    const rows = compareRecords({ transfer_mode: 'sftp' }, { transfer_mode: 'ftps' });
    expect(rows).toEqual([{ key: 'transfer_mode', label: 'Transfer mode', change: 'changed', before: { text: 'sftp' }, after: { text: 'ftps' } }]);
  });
});

describe('the other versioned kinds', () => {
  it('leaves a group’s counters out (moved by others, never by an edit) and matches its tags by key, not position', () => {
    const stored = { pk: 'T#demo#GROUP#sales', sk: 'GROUP', group_reference: 'sales', tags: [{ tag_key: 'region', tag_value: 'north' }, { tag_key: 'desk', tag_value: 'fx' }], stats_device_users: 4 };
    const now = { group_reference: 'sales', tags: [{ tag_key: 'desk', tag_value: 'fx' }, { tag_key: 'region', tag_value: 'south' }], stats: { device_users: 5, expected_devices: 5, actual_devices: 5, services: {} } };
    const rows = compareRecords(comparableRecord('group', stored), comparableRecord('group', now), 'group');
    expect(rows.filter((row) => row.change !== 'same').map((row) => [row.label, row.before?.text, row.after?.text])).toEqual([['Tag › region › Value', 'north', 'south']]);
    expect(rows.some((row) => row.key.startsWith('stats'))).toBe(false);
  });

  it('compares a legal hold by whether it is active and who changed it, never by its storage-lock walk or coverage', () => {
    const placed = { target: 'ada-1', target_type: 'DeviceUser', is_active: true, created_at: '2026-11-01T09:00:00.000Z', sync_id: 'w1', sync_state: 'Synced', objects_synced: 12 };
    const released = { ...placed, is_active: false, sync_state: 'Syncing', objects_synced: 0, coverage: { payloads: 3 } };
    const rows = compareRecords(comparableRecord('legal-hold', placed), comparableRecord('legal-hold', released), 'legal-hold');
    expect(rows.filter((row) => row.change !== 'same').map((row) => [row.label, row.before?.text, row.after?.text])).toEqual([['Active', 'Yes', 'No']]);
    expect(rows.find((row) => row.key === 'target_type')?.after?.text).toBe('Device user');
    expect(rows.find((row) => row.key === 'created_at')?.label).toBe('First placed');
  });

  it('compares a device’s assignment by who holds it and the group alone, not its sign-in bookkeeping', () => {
    const before = { pk: 'x', sk: 'y', device_reference: 'd1', device_user_reference: 'ada-1', first_name: 'Ada', surname: 'Lovelace', group: 'sales', last_seen: '2026-11-01T09:00:00.000Z', model: 'Pixel 8' };
    const after = { ...before, device_user_reference: 'bob-2', first_name: 'Bob', surname: 'Babbage', last_seen: '2026-11-02T09:00:00.000Z', model: 'Pixel 9', held_by: [] };
    const rows = compareRecords(comparableRecord('device-assignment', before), comparableRecord('device-assignment', after), 'device-assignment');
    expect(rows.map((row) => row.key)).toEqual(['device_user_reference', 'first_name', 'surname', 'group']);
    expect(rows.filter((row) => row.change === 'changed').map((row) => row.label)).toEqual(['Held by (device user)', 'Holder’s first name', 'Holder’s surname']);
  });

  it('reads a device user by the contract, so a default the answer fills is no change, and leaves out the holds they fall under', () => {
    const stored = { pk: 'x', sk: 'y', device_user_reference: 'ada-1', first_name: 'Ada', surname: 'Lovelace', group: 'sales', is_active: true, services: ['calls'] };
    const answer = { ...stored, expected_device_count: 1, is_legacy: false, held_by: [{ target_type: 'DeviceUser', target: 'ada-1' }] };
    const rows = compareRecords(comparableRecord('device-user', stored), comparableRecord('device-user', { ...answer, surname: 'King' }), 'device-user');
    expect(rows.filter((row) => row.change !== 'same').map((row) => [row.label, row.before?.text, row.after?.text])).toEqual([['Surname', 'Lovelace', 'King']]);
    expect(rows.find((row) => row.key === 'services')?.after?.text).toBe('Calls');
    expect(rows.find((row) => row.key === 'is_active')?.label).toBe('Onboarded');
  });
});

describe('a transfer configuration’s passwords', () => {
  const version = (marker: string) => ({ pk: 'x', sk: 'y', transfer_config_reference: 'nightly', target_type: 'SFTP', params: { server: 'sftp.example.com', port: 22 }, sealed_sftp_password: marker, revision: 'r1', schedule_name: 's' });
  const now = { transfer_config_reference: 'nightly', target_type: 'SFTP', params: { server: 'sftp.example.com', port: 22 }, has_sftp_password: true, has_zip_password: false, external_id: 'e' };

  it('shows the marker a version holds and the record now as set, never a value, and leaves storage bookkeeping out', () => {
    const rows = compareRecords(comparableRecord('transfer-config', version(SECRET_CHANGED)), comparableRecord('transfer-config', now), 'transfer-config');
    const password = rows.find((row) => row.key === 'sealed_sftp_password');
    expect(password).toMatchObject({ label: 'SFTP password', before: { text: SECRET_CHANGED }, after: { text: SECRET_SET } });
    expect(rows.map((row) => row.key)).not.toEqual(expect.arrayContaining(['has_sftp_password', 'has_zip_password', 'sealed_zip_password', 'revision', 'schedule_name', 'external_id']));
    expect(rows.find((row) => row.key === 'target_type')?.after?.text).toBe('SFTP');
    expect(rows.find((row) => row.key === 'params.server')?.label).toBe('Target settings › Server');
  });

  it('says a password changed only when a version between the two sides says its change replaced it', () => {
    const unchanged = version(SECRET_UNCHANGED);
    const changed = version(SECRET_CHANGED);
    const rows = (before: Record<string, unknown>, after: Record<string, unknown>, between: Record<string, unknown>[]) =>
      withSecretsSettled(compareRecords(comparableRecord('transfer-config', before), comparableRecord('transfer-config', after), 'transfer-config'), between).find(
        (row) => row.key === 'sealed_sftp_password',
      )?.change;
    // The newest version against the record now: its own marker says what the last change did.
    expect(rows(unchanged, now, [unchanged])).toBe('same');
    expect(rows(changed, now, [changed])).toBe('changed');
    // Two versions apart: any change between them replaced it, whatever the older one's own marker says.
    expect(rows(unchanged, unchanged, [unchanged, changed])).toBe('changed');
    expect(rows(unchanged, unchanged, [unchanged, unchanged])).toBe('same');
  });

  it('still shows a password set or dropped by a change as added or removed', () => {
    const without = { ...version(SECRET_CHANGED), sealed_sftp_password: undefined };
    delete (without as Record<string, unknown>).sealed_sftp_password;
    const added = withSecretsSettled(compareRecords(comparableRecord('transfer-config', without), comparableRecord('transfer-config', now), 'transfer-config'), [without]);
    expect(added.find((row) => row.key === 'sealed_sftp_password')).toMatchObject({ change: 'added', after: { text: SECRET_SET } });
    const dropped = withSecretsSettled(compareRecords(comparableRecord('transfer-config', version(SECRET_CHANGED)), comparableRecord('transfer-config', { ...now, has_sftp_password: false }), 'transfer-config'), []);
    expect(dropped.find((row) => row.key === 'sealed_sftp_password')).toMatchObject({ change: 'removed', before: { text: SECRET_CHANGED } });
  });
});
