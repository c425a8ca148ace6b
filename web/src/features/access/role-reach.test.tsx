import { describe, expect, it } from 'vitest';
import type { Role } from '#shared/contract/entities/roles.ts';
import { renderSignedIn, type SignedInUser } from '../../testing/render-signed-in.tsx';
import { RoleEditor } from './role-editor.tsx';
import { EMPTY_ROLE, type RoleDraft } from './role-model.ts';
import { roleReach, type HeldRoles } from './role-reach.ts';

const NO_ALERTS = { ops_read: false, ops_write: false, sec_read: false, sec_write: false };
const stored = (reference: string, permissions: Role['permissions'], payload_types: Role['payload_types'] = ['SMS']): Role => ({
  client: 'demo',
  role_reference: reference,
  permissions,
  payload_types,
  cidr_ranges: [],
  alert_permissions: NO_ALERTS,
  is_alertable: false,
  is_system: false,
});
/** The found escalation's role: manages roles, lists SMS. */
const NARROW = stored('narrow', [{ actions_matching: 'roles:*' }, { actions_matching: 'payloads:List' }]);
const HELD: HeldRoles = { references: ['narrow'], roles: [NARROW] };

describe('roleReach', () => {
  it('locks a role the user holds', () => {
    expect(roleReach(HELD, { reference: 'narrow', creating: false, stored: NARROW }).lockedReason).toBe(
      'You hold role "narrow", so you cannot change or delete it; ask someone who does not hold it.',
    );
  });

  it('locks a stored role granting more than the user’s, naming why', () => {
    const broad = stored('devices', [{ actions_matching: 'devices:*' }]);
    expect(roleReach(HELD, { reference: 'devices', creating: false, stored: broad }).lockedReason).toMatch(
      /^Role "devices" grants more than your own roles, so you cannot change or delete it\. It allows devices:/,
    );
  });

  it('lists what a draft grants beyond the user’s roles, by field', () => {
    const reach = roleReach(HELD, {
      reference: 'new',
      creating: true,
      body: { permissions: [{ actions_matching: 'payloads:List' }], payload_types: ['SMS', 'Call'], cidr_ranges: [], alert_permissions: { ...NO_ALERTS, sec_read: true } },
    });
    expect(reach.beyond).toEqual([
      'body.payload_types: It opens payload types your roles do not: Call',
      'body.alert_permissions: It gives alert permissions your roles do not: sec_read',
    ]);
    expect(roleReach(HELD, { reference: 'new', creating: true, body: { permissions: [{ actions_matching: 'roles:List' }], payload_types: ['SMS'], alert_permissions: NO_ALERTS } }).beyond).toEqual([]);
  });

  it('leaves the check to the server while the user’s roles are unknown', () => {
    expect(roleReach({ references: ['narrow'], roles: undefined }, { reference: 'new', creating: true, body: { permissions: [{ actions_matching: '*' }], alert_permissions: NO_ALERTS } })).toEqual({ beyond: [] });
  });
});

const EDITOR: SignedInUser = { reference: 'u-1', actions: ['roles:List', 'roles:Read', 'roles:Update'], groups: [], roles: ['narrow'], payloadTypes: ['SMS'] };
const catalogue = [
  { action: 'roles:List', description: 'List roles.' },
  { action: 'devices:List', description: 'List devices.' },
];
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/\s+/g, ' ');
const render = (initial: RoleDraft, options: { creating: boolean; stored?: Role }) =>
  renderSignedIn(<RoleEditor initial={initial} creating={options.creating} readOnly={false} catalogue={catalogue} onSaved={() => undefined} stored={options.stored} held={HELD} />, EDITOR);

describe('RoleEditor offers nothing the server would refuse', () => {
  it('disables saving a draft broader than the user’s roles, saying what is beyond', () => {
    const html = render({ ...EMPTY_ROLE, reference: 'everything', rules: [{ effect: 'allow', actions: ['*'], isRegex: false, conditions: [] }], payloadTypes: ['SMS'] }, { creating: true });
    expect(text(html)).toContain('Beyond your own roles: you may grant only what your roles allow');
    expect(text(html)).toMatch(/body\.permissions: It allows .* where your roles do not/);
    expect(html).toMatch(/<button[^>]*(disabled|data-disabled)[^>]*type="submit"|<button[^>]*type="submit"[^>]*(disabled|data-disabled)/);
  });

  it('offers the save for a draft within the user’s roles', () => {
    const html = render({ ...EMPTY_ROLE, reference: 'lister', rules: [{ effect: 'allow', actions: ['roles:List'], isRegex: false, conditions: [] }], payloadTypes: ['SMS'] }, { creating: true });
    expect(text(html)).not.toContain('Beyond your own roles');
    expect(html).not.toMatch(/<button[^>]*type="submit"[^>]*disabled/);
    expect(text(html)).toContain('Create role');
  });

  it('shows a held role read-only, with the reason and no save', () => {
    const html = text(render({ ...EMPTY_ROLE, reference: 'narrow', rules: [{ effect: 'allow', actions: ['roles:*'], isRegex: false, conditions: [] }] }, { creating: false, stored: NARROW }));
    expect(html).toContain('You hold role "narrow", so you cannot change or delete it');
    expect(html).not.toContain('Save role');
  });
});
