import { describe, expect, it } from 'vitest';
import { UnauthorizedError } from '../errors.ts';
import { actorLabelOf, actorOf, deviceOf } from './actor.ts';
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

describe('actorLabelOf', () => {
  it("says a portal user's e-mail in messages people read, else names the actor as a record does", () => {
    expect(actorLabelOf(user('demo'))).toBe('admin@demo.test');
    expect(actorLabelOf(user(ADMIN_CLIENT, { subject: 'ops-1', email: undefined }))).toBe('staff:ops-1');
    expect(actorLabelOf(app)).toBe('app:recorder-sync');
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
