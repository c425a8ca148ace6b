import { describe, expect, it } from 'vitest';
import { AuditSearch, deviceActivityQueryOf, userActivityQueryOf } from './audit-filters.ts';

describe('audit filters', () => {
  it('sends each trail only the filters it takes', () => {
    const search = AuditSearch.parse({ trail: 'users', from: '2026-11-01', outcome: 'refused', user_id: 'demo-admin', device_reference: 'd-1' });
    expect(userActivityQueryOf(search)).toEqual({ from: '2026-11-01', user_id: 'demo-admin', is_allowed: 'false' });
    expect(deviceActivityQueryOf(search)).toEqual({ from: '2026-11-01', device_reference: 'd-1', is_allowed: 'false' });
  });

  it('sends the kind, and takes a portal user named by an alert link as the person', () => {
    expect(userActivityQueryOf(AuditSearch.parse({ kind: 'change', portal_user: 'demo-admin' }))).toEqual({ kind: 'change', user_id: 'demo-admin' });
    expect(AuditSearch.parse({ kind: 'both' })).toEqual({});
  });

  it('leaves the outcome out when both are wanted, and drops junk', () => {
    const search = AuditSearch.parse({ outcome: 'maybe', trail: 'files', to: 'tomorrow' });
    expect(search).toEqual({});
    expect(userActivityQueryOf(search)).toEqual({});
  });
});
