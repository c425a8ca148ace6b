import { describe, expect, it } from 'vitest';
import { UnauthorizedError } from '../errors.ts';
import { actorOf, actorRecordOf, actorWords, deviceOf } from './actor.ts';
import { ADMIN_CLIENT, type ClientAppPrincipal, type DevicePrincipal, type UserPrincipal } from './principal.ts';

const user = (client: string, extra: Partial<UserPrincipal> = {}): UserPrincipal => ({
  kind: 'user',
  subject: 'demo-admin',
  email: 'admin@demo.test',
  client,
  groups: ['Admin'],
  tokenIssuer: 'https://issuer.test',
  ...extra,
});
const app: ClientAppPrincipal = {
  kind: 'client-app',
  client: 'demo',
  appReference: 'recorder-sync',
  subject: 'sub-at-their-issuer',
  tokenIssuer: 'https://apps.test',
  roles: [],
  cidrRanges: [],
};
const device: DevicePrincipal = { kind: 'device', client: 'demo', deviceReference: 'phone-1' };

describe('actorOf', () => {
  it("names a tenant's portal user by their reference (the token's sub), never by e-mail", () => {
    expect(actorOf(user('demo'))).toBe('demo-admin');
    expect(actorOf(user('demo', { email: undefined }))).toBe('demo-admin');
  });

  it('names provider staff as staff:<sub>, on the internal console and in support mode alike', () => {
    expect(actorOf(user(ADMIN_CLIENT, { subject: 'ops-1', email: 'ops@verity.test' }))).toBe('staff:ops-1');
    expect(actorOf(user(ADMIN_CLIENT, { subject: 'ops-1', supportReference: '01J0SUPPORT' }))).toBe('staff:ops-1');
  });

  it("names a client app by its app reference, not by the subject its own issuer gave it", () => {
    expect(actorOf(app)).toBe('app:recorder-sync');
  });

  it('names a device by its reference, and nobody authenticated as unknown', () => {
    expect(actorOf(device)).toBe('device:phone-1');
    expect(actorOf(undefined)).toBe('unknown');
  });
});

describe('actorRecordOf', () => {
  it('keeps the stable reference with the name and e-mail the token carried at the time of the act', () => {
    expect(actorRecordOf(user('demo', { name: 'Dana Admin' }))).toEqual({ reference: 'demo-admin', kind: 'user', name: 'Dana Admin', email: 'admin@demo.test' });
  });

  it('marks staff as staff, with the support request they act under', () => {
    const staff = user(ADMIN_CLIENT, { subject: 'verity-staff', email: 'staff@verity.test', name: 'Sam Staff', supportReference: '01JSUPPORT' });
    expect(actorRecordOf(staff)).toEqual({ reference: 'staff:verity-staff', kind: 'staff', name: 'Sam Staff', email: 'staff@verity.test', support_request: '01JSUPPORT' });
  });

  it('names apps, devices and nobody by reference and kind', () => {
    expect(actorRecordOf(app)).toEqual({ reference: 'app:recorder-sync', kind: 'client-app', name: 'recorder-sync' });
    expect(actorRecordOf(device)).toEqual({ reference: 'device:phone-1', kind: 'device' });
    expect(actorRecordOf(undefined)).toEqual({ reference: 'unknown', kind: 'unknown' });
  });
});

describe('actorWords', () => {
  it('says a kept actor as a message does: name and e-mail, else what there is', () => {
    expect(actorWords({ reference: 'demo-admin', kind: 'user', name: 'Dana Admin', email: 'admin@demo.test' })).toBe('Dana Admin (admin@demo.test)');
    expect(actorWords({ reference: 'demo-admin', kind: 'user', email: 'admin@demo.test' })).toBe('admin@demo.test');
    expect(actorWords({ reference: 'app:sync', kind: 'client-app' })).toBe('app:sync');
  });
});

describe('deviceOf', () => {
  it('is the calling device of a device endpoint', () => {
    expect(deviceOf(device)).toBe(device);
  });

  it('refuses any other caller with 401', () => {
    for (const principal of [undefined, user('demo'), app]) expect(() => deviceOf(principal)).toThrow(UnauthorizedError);
  });
});
