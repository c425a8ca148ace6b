import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { claimedSupportGrant, readSupportAccess, supportAccessToItem, toSupportAccess, type SupportAccessItem } from './support-access.ts';

const request: SupportAccessItem = {
  client: 'acme',
  request_reference: '01J00000000000000000000REQ',
  requested_by: 'staff:s-1',
  role: 'Auditor',
  request_description: 'Investigate a failed upload',
  requested_expiry: '2026-01-09T00:00:00.000Z',
  approval_state: 'approved',
  approval_expiry: '2026-01-08T00:00:00.000Z',
  approved_by: 'ada@acme.test',
  created_at: '2026-01-02T00:00:00.000Z',
  updated_at: '2026-01-03T00:00:00.000Z',
  updated_by: 'ada@acme.test',
};

describe('support-access item', () => {
  it('round-trips: in the tenant list and its state list, read back, and the contract shape without the change stamps', () => {
    const item = supportAccessToItem(request);
    expect(item).toMatchObject(keys.supportAccess.item('acme', request.request_reference, 'approved'));
    expect(readSupportAccess(item)).toEqual(request);
    const shown = toSupportAccess(readSupportAccess(item));
    expect(shown).toMatchObject({ request_reference: request.request_reference, approval_state: 'approved', requested_by: 'staff:s-1' });
    expect(shown).not.toHaveProperty('updated_by');
    expect(shown).not.toHaveProperty('gsi1pk');
  });

  it('refuses a request in a state there is none of, naming the path', () => {
    const item = { ...supportAccessToItem(request), approval_state: 'maybe' };
    expect(() => readSupportAccess(item)).toThrow(InternalError);
    expect(() => readSupportAccess(item)).toThrow(/SupportAccess item .*approval_state: /);
  });

  it('claims the grant support mode reads from a request with its contract fields, and nothing from one without', () => {
    const { client: _tenant, requested_by: _by, created_at: _created, updated_at: _updated, updated_by: _changer, ...contract } = request;
    const bare = { ...keys.supportAccess.item('acme', request.request_reference, 'approved'), ...contract };
    expect(claimedSupportGrant(bare)).toMatchObject({ request_reference: request.request_reference, approval_state: 'approved', approval_expiry: request.approval_expiry });
    expect(claimedSupportGrant({ ...bare, approval_state: 'maybe' })).toBeUndefined();
    expect(claimedSupportGrant({ ...keys.supportAccess.item('acme', 'r-2', 'approved') })).toBeUndefined();
  });
});
