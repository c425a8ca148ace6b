import { describe, expect, it } from 'vitest';
import { actorName } from './actor-name.ts';

describe('actorName', () => {
  it('names a portal user by name and e-mail', () => {
    expect(actorName({ reference: 'demo-admin', kind: 'user', name: 'Dana Admin', email: 'admin@demo.test' }, 'demo-admin')).toBe('Dana Admin (admin@demo.test)');
  });

  it('names staff in support mode by name, "support" and the request', () => {
    const staff = { reference: 'staff:verity-staff', kind: 'staff', name: 'Sam Staff', email: 'staff@verity.test', support_request: '01JREQ' } as const;
    expect(actorName(staff, staff.reference)).toBe('Sam Staff (support, request 01JREQ)');
  });

  it('shows the stored reference of an older record honestly, with its support request when it has one', () => {
    expect(actorName(undefined, 'admin@demo.test')).toBe('admin@demo.test');
    expect(actorName(undefined, 'verity-staff', '01JREQ')).toBe('verity-staff (support, request 01JREQ)');
  });

  it('says what a machine actor is', () => {
    expect(actorName({ reference: 'app:sync', kind: 'client-app', name: 'sync' }, 'app:sync')).toBe('client app sync');
    expect(actorName({ reference: 'job:retention', kind: 'job', name: 'retention' }, 'job:retention')).toBe('Verity (retention job)');
    expect(actorName(undefined, 'job:transfer')).toBe('Verity (transfer job)');
    expect(actorName(undefined, 'system:payload-processing')).toBe('Verity (payload processing job)');
  });
});
