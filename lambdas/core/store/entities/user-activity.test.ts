import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { claimedUserActivity, readUserActivity, toUserActivity } from './user-activity.ts';

const call = {
  log_id: 'l1',
  user_id: 'ada@acme.test',
  activity_time: '2026-01-02T03:04:05.000Z',
  action: 'roles:Update',
  is_allowed: true,
  roles: ['Admins'],
  is_client_app: false,
  status_code: 200,
};
const item = { ...keys.userActivity.item('acme', call.activity_time, 'l1'), ...call, chain_state: 'linked', sequence: 4 };

describe('user activity item', () => {
  it('reads the call as the contract shows it (the trail chain attributes stay out)', () => {
    expect(toUserActivity(readUserActivity(item))).toEqual(call);
    expect(claimedUserActivity(item)).toEqual(call);
  });

  it('fills what older records lack', () => {
    const { roles: _roles, is_client_app: _app, ...old } = item;
    expect(readUserActivity(old)).toMatchObject({ roles: [], is_client_app: false });
  });

  it('refuses a malformed record naming the entity and the path, and claims nothing for it', () => {
    expect(() => readUserActivity({ ...item, user_id: 7 })).toThrow(InternalError);
    expect(() => readUserActivity({ ...item, user_id: 7 })).toThrow(/UserActivity item .*user_id: /);
    expect(claimedUserActivity({ ...item, user_id: 7 })).toBeUndefined();
  });
});
