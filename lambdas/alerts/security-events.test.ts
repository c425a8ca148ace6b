import { describe, expect, it } from 'vitest';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { createAccessContext } from '../core/auth/access/create-access-context.ts';
import { authorize, CidrRefusedError } from '../core/auth/access/resolve-access.ts';
import { ForbiddenError } from '../core/errors.ts';
import type { TableStore } from '../core/ports/table-store.ts';
import { changedByWords, raiseSecurityAlert, securityAlert } from './security-events.ts';

const role = (reference: string, cidr: string[], denied = false): Role =>
  ({
    client: 'demo',
    role_reference: reference,
    permissions: [{ actions_matching: 'things:*', is_denied: denied, is_regex: false }],
    payload_types: [],
    cidr_ranges: cidr,
    alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
    is_alertable: false,
  }) as unknown as Role;
const endpoint = { surface: 'admin', action: 'things:Read' } as Endpoint;
const refusal = (roles: Role[], ranges: string[] = []) => {
  try {
    const access = createAccessContext({ roles, ip: '192.0.2.7', isClientApp: false });
    authorize({ access, limits: [{ owner: "the account's", ranges }] }, endpoint);
    return undefined;
  } catch (error) {
    return error;
  }
};

describe('which 403s are CIDR refusals', () => {
  it('the account or app ranges, and a role that would allow the call from inside its ranges', () => {
    expect(refusal([role('ops', [])], ['10.0.0.0/8'])).toBeInstanceOf(CidrRefusedError);
    expect(refusal([role('office', ['10.0.0.0/8'])])).toBeInstanceOf(CidrRefusedError);
  });
  it('not a missing permission, nor a deny', () => {
    const missing = refusal([]);
    expect(missing).toBeInstanceOf(ForbiddenError);
    expect(missing).not.toBeInstanceOf(CidrRefusedError);
    expect(refusal([role('ops', []), role('no', [], true)])).not.toBeInstanceOf(CidrRefusedError);
    expect(refusal([role('ops', [])])).toBeUndefined();
  });
});

describe('security alert definitions', () => {
  it('keys a CIDR refusal per (user, ip), clipping what the caller chose', () => {
    const alert = securityAlert('demo', { kind: 'cidr-refused', userId: 'u'.repeat(5000), userLabel: 'x', ip: '192.0.2.7', action: 'a:B', reason: 'r' });
    expect(alert).toMatchObject({ scope: 'sec', type: 'PortalUserAlert', keyType: 'Scoped', severity: 'Medium' });
    expect(alert.key.length).toBeLessThan(300);
    expect(alert.key.endsWith(':192.0.2.7')).toBe(true);
  });
  it('gives support approval High and every other state Medium', () => {
    const of = (state: 'approved' | 'expired') =>
      securityAlert('demo', { kind: 'support-access', state, reference: 'R1', role: 'admin', by: 'someone' }).severity;
    expect([of('approved'), of('expired')]).toEqual(['High', 'Medium']);
  });
  it('shares one key for every unknown issuer, so a caller cannot mint alerts by inventing issuers', () => {
    const key = (issuer: string) => securityAlert('demo', { kind: 'client-app-token-refused', issuer, reason: 'Token issuer invalid' }).key;
    expect(key('https://a.example')).toBe(key('https://b.example'));
    expect(securityAlert('demo', { kind: 'client-app-token-refused', issuer: 'i', appReference: 'app1', reason: 'r' }).key).toBe(
      'client-app-token-refused:app:app1',
    );
  });
});

describe('change alerts name who by name and from where', () => {
  const dana = { reference: 'demo-admin', kind: 'user' as const, name: 'Dana Admin', email: 'admin@demo.test' };

  it('words a person, a client app and staff in support mode, with the source address', () => {
    expect(changedByWords({ actor: dana, ip: '198.51.100.7' })).toBe('Dana Admin (admin@demo.test) from 198.51.100.7');
    expect(changedByWords({ actor: { reference: 'app:bot', kind: 'client-app', name: 'bot' }, ip: undefined })).toBe('client app bot from an unknown address');
    expect(changedByWords({ actor: { reference: 'staff:s', kind: 'staff', name: 'Sam Staff', support_request: 'R1' }, ip: '203.0.113.1' })).toBe(
      'Sam Staff in support mode (request R1) from 203.0.113.1',
    );
  });

  it('makes a role that grants more High, naming how; a role that grants no more Low', () => {
    const more = securityAlert('demo', { kind: 'role-changed', change: 'replaced', role: 'ops', grantsMore: ['It allows apps:Create beyond what it allowed before.'], actor: dana, ip: '198.51.100.7' });
    expect(more).toMatchObject({ scope: 'sec', severity: 'High', keyType: 'Transient', subject: 'Role replaced, granting more' });
    expect(more.message).toBe('Role "ops" was replaced by Dana Admin (admin@demo.test) from 198.51.100.7; it grants more than before: It allows apps:Create beyond what it allowed before.');
    expect(securityAlert('demo', { kind: 'role-changed', change: 'replaced', role: 'ops', grantsMore: [], actor: dana, ip: '198.51.100.7' })).toMatchObject({
      severity: 'Low',
      subject: 'Role replaced',
    });
  });

  it('makes every client app and transfer destination change High, saying where tokens come from and where recordings go', () => {
    const app = securityAlert('demo', { kind: 'client-app-changed', change: 'created', app: 'bot', issuer: 'https://idp.example', jwksUri: 'https://idp.example/jwks', roles: ['admin'], actor: dana, ip: '198.51.100.7' });
    expect(app).toMatchObject({ scope: 'sec', severity: 'High', subject: 'Client app created', apiAction: 'apps:Create' });
    expect(app.message).toBe(
      'Client app "bot" was created by Dana Admin (admin@demo.test) from 198.51.100.7: tokens of issuer https://idp.example (key set https://idp.example/jwks) act with roles "admin"',
    );
    const transfer = securityAlert('demo', {
      kind: 'transfer-destination-changed',
      change: 'changed',
      config: 'nightly',
      destination: 'sftp://u@sftp.example:22/in (no host key set)',
      schedule: 'rate(1 minute)',
      active: true,
      actor: dana,
      ip: '198.51.100.7',
    });
    expect(transfer).toMatchObject({ scope: 'sec', severity: 'High', subject: 'Transfer destination changed' });
    expect(transfer.message).toBe(
      'Transfer configuration "nightly" now delivers to sftp://u@sftp.example:22/in (no host key set), on schedule rate(1 minute), by Dana Admin (admin@demo.test) from 198.51.100.7',
    );
  });
});

describe('raiseSecurityAlert', () => {
  it('never throws: a failed raise is logged', async () => {
    const errors: string[] = [];
    const broken = new Proxy({}, { get: () => () => Promise.reject(new Error('table down')) }) as TableStore;
    const logger = { debug() {}, info() {}, warn() {}, error: (message: string) => errors.push(message) };
    await expect(
      raiseSecurityAlert({ table: broken, clock: { now: () => new Date() }, logger }, 'demo', {
        kind: 'cidr-refused',
        userId: 'u',
        userLabel: 'u@demo.test',
        ip: '192.0.2.7',
        action: 'a:B',
        reason: 'r',
      }),
    ).resolves.toBeUndefined();
    expect(errors).toEqual(['security alert not raised']);
  });
});
