import { describe, expect, it } from 'vitest';
import { ACTION_NAMES } from '#shared/contract/actions.ts';
import type { UserActivity } from '#shared/contract/entities/activity.ts';
import { foldReads, sentenceOf, subjectOf } from './activity-sentence.ts';

const dana = { reference: 'demo-admin', kind: 'user', name: 'Dana Admin', email: 'admin@demo.test' } as const;

let sequence = 0;
function record(patch: Partial<UserActivity>): UserActivity {
  sequence += 1;
  return {
    log_id: `log-${sequence}`,
    user_id: 'demo-admin',
    actor: dana,
    action: 'payloads:List',
    is_allowed: true,
    activity_time: `2026-11-27T08:${String(sequence % 60).padStart(2, '0')}:00.000Z`,
    roles: ['admin'],
    is_client_app: false,
    parameters: {},
    ...patch,
  };
}

describe('sentenceOf', () => {
  it('says who did what to which thing, by name and e-mail, without raw parameters', () => {
    const hold = record({ action: 'legalHolds:Update', parameters: { target_type: 'DeviceUser', target: 'du-bram' } });
    expect(sentenceOf(hold)).toBe('Dana Admin (admin@demo.test) placed a legal hold on device user du-bram');
    const download = record({ action: 'payloads:Download', parameters: { payload_reference: '01JREC' } });
    expect(sentenceOf(download)).toBe('Dana Admin (admin@demo.test) downloaded recording 01JREC');
    expect(sentenceOf(record({}))).toBe('Dana Admin (admin@demo.test) viewed the recordings list');
  });

  it('says what was refused and why', () => {
    const refused = record({ action: 'payloads:Download', is_allowed: false, denial_reason: 'No role allows it', parameters: { payload_reference: '01JREC' } });
    expect(sentenceOf(refused)).toBe('Dana Admin (admin@demo.test) was refused downloading recordings (recording 01JREC): No role allows it');
  });

  it('names support staff by name, "support" and the request', () => {
    const staff = record({
      user_id: 'staff:verity-staff',
      actor: { reference: 'staff:verity-staff', kind: 'staff', name: 'Sam Staff', support_request: '01JSUPPORT' },
      support_reference: '01JSUPPORT',
      action: 'devices:List',
    });
    expect(sentenceOf(staff)).toBe('Sam Staff (support, request 01JSUPPORT) viewed the devices list');
  });

  it('shows an older record (no actor kept) by its stored reference', () => {
    const { actor: _actor, ...older } = record({ user_id: 'verity-staff', support_reference: '01JOLD', action: 'roles:List' });
    expect(sentenceOf(older)).toBe('verity-staff (support, request 01JOLD) viewed the roles list');
  });

  it('says every action of the catalogue in words, never by its code', () => {
    for (const action of ACTION_NAMES) {
      expect(sentenceOf(record({ action })), action).not.toContain(action);
    }
  });

  it('leaves the tenant out of a tenant call, and says any other parameter by name', () => {
    expect(subjectOf({ action: 'devices:Read', parameters: { client: 'demo', device_reference: 'phone-1' } })).toBe('device phone-1');
    expect(subjectOf({ action: 'internal:ListClientRoles', parameters: { client: 'demo' } })).toBe('account demo');
    expect(subjectOf({ action: 'approvals:Odd', parameters: { approval_status: 'pending' } })).toBe('approval status pending');
  });
});

describe('foldReads', () => {
  it('folds consecutive reads of one list by one person into one row that says how many', () => {
    const views = Array.from({ length: 37 }, () => record({}));
    const rows = foldReads(views);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.records).toHaveLength(37);
    expect(sentenceOf(rows[0]!.first, rows[0]!.records.length)).toBe('Dana Admin (admin@demo.test) viewed the recordings list 37 times');
  });

  it('never folds changes, other people, other things or refusals together', () => {
    const robin = { reference: 'demo-reviewer', kind: 'user', name: 'Robin Reviewer', email: 'reviewer@demo.test' } as const;
    const rows = foldReads([
      record({}),
      record({}),
      record({ user_id: 'demo-reviewer', actor: robin }),
      record({ action: 'devices:Read', parameters: { device_reference: 'a' } }),
      record({ action: 'devices:Read', parameters: { device_reference: 'b' } }),
      record({ action: 'comments:Create', parameters: { payload_reference: 'r' } }),
      record({ action: 'comments:Create', parameters: { payload_reference: 'r' } }),
      record({ is_allowed: false }),
      record({}),
    ]);
    expect(rows.map((row) => row.records.length)).toEqual([2, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('keeps every record, in order', () => {
    const list = [record({}), record({ action: 'groups:Update' }), record({}), record({})];
    expect(foldReads(list).flatMap((row) => row.records)).toEqual(list);
  });
});
