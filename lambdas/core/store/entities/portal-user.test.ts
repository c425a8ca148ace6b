import { describe, expect, it } from 'vitest';
import { keys } from '../keys.ts';
import { readPortalUser, toStaff } from './portal-user.ts';

describe('portal user item', () => {
  it('reads a staff member and answers the staff list entry', () => {
    const item = {
      ...keys.portalUser.item('admin', 'sub-1'),
      client: 'admin',
      user_reference: 'sub-1',
      email: 'ops@verity.test',
      roles: ['staff'],
      user_group: '*',
      last_seen: '2026-01-02T03:04:05.000Z',
    };
    expect(toStaff(readPortalUser(item))).toEqual({ user_reference: 'sub-1', email: 'ops@verity.test', roles: ['staff'], last_seen: '2026-01-02T03:04:05.000Z' });
    expect(readPortalUser(item).user_group).toBe('*');
  });

  it('reads attributes of the wrong type as absent (provisioned items are tolerated, never a failed list)', () => {
    const item = { ...keys.portalUser.item('demo', 'u'), user_reference: 'u', email: 7, roles: ['a', 3], portal_config: ['x'], last_seen: null };
    expect(readPortalUser(item)).toMatchObject({ user_reference: 'u', roles: ['a'] });
    expect(readPortalUser(item).email).toBeUndefined();
    expect(readPortalUser(item).portal_config).toBeUndefined();
  });
});
