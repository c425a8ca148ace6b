import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedActions, evaluate, payloadTypesOf, visibleGroupFilter, type GroupFacts, type RoleLike } from './evaluate.ts';
import { PAYLOAD_TYPES } from '../constants/payloads.ts';
import { explainPermission } from './explain.ts';

const ORDER: readonly string[] = PAYLOAD_TYPES;

const ACTIONS = ['roles:List', 'roles:Update', 'groups:Get', 'groups:Update', 'devices:List', 'payloads:Download'];
const PATTERNS: Array<[string, boolean]> = [
  ['*', false],
  ['roles:*', false],
  ['*:List', false],
  ['groups:?et', false],
  ['devices:List', false],
  ['(roles|groups):Update', true],
  ['(a+)+$', true],
  ['(unclosed', true],
];
const GROUPS: GroupFacts[] = [
  { name: 'sales-eu', tags: [{ tag_key: 'region', tag_value: 'eu' }] },
  { name: 'sales-us', tags: [{ tag_key: 'region', tag_value: 'us' }, { tag_key: 'vip', tag_value: null }] },
  { name: 'ops', tags: [] },
];

const condition = fc.record(
  {
    names_matching: fc.constantFrom('sales-*', 'ops', '*'),
    keys_matching: fc.constantFrom('region', 'vip'),
    values_matching: fc.constantFrom('eu', 'us', '*'),
    is_denied: fc.boolean(),
    is_regex: fc.constant(false),
  },
  { requiredKeys: ['is_denied', 'is_regex'] },
);
const permission = fc
  .record({
    pattern: fc.constantFrom(...PATTERNS),
    is_denied: fc.boolean(),
    conditions: fc.option(fc.array(condition, { maxLength: 2 }), { nil: undefined }),
  })
  .map(({ pattern: [actions_matching, is_regex], is_denied, conditions }) => ({
    actions_matching,
    is_regex,
    is_denied,
    ...(conditions === undefined ? {} : { conditions }),
  }));
const role = fc.record({
  role_reference: fc.constantFrom('admin', 'reviewer', 'ops', 'auditor'),
  permissions: fc.array(permission, { minLength: 1, maxLength: 4 }),
  cidr_ranges: fc.constantFrom([], ['127.0.0.0/8'], ['10.0.0.0/8']),
  payload_types: fc.subarray(['Call', 'SMS', 'MMS', 'Photo']),
});
const roles = fc.array(role, { maxLength: 4 });
const request = fc.record({
  action: fc.constantFrom(...ACTIONS),
  group: fc.option(fc.constantFrom(...GROUPS), { nil: undefined }),
  ip: fc.constantFrom('127.0.0.1', '10.1.2.3', '192.168.0.1', undefined),
});

const allow = (actions_matching: string, extra: Record<string, unknown> = {}) => ({ actions_matching, ...extra });
const deny = (actions_matching: string, extra: Record<string, unknown> = {}) => ({ actions_matching, is_denied: true, ...extra });
const roleOf = (role_reference: string, ...permissions: RoleLike['permissions']): RoleLike => ({ role_reference, permissions });

describe('evaluate: properties', () => {
  it('deny beats allow: an unconditional deny of * refuses everything, whatever else is held', () => {
    fc.assert(
      fc.property(roles, request, (held, call) => {
        const withDeny = [...held, roleOf('blocker', deny('*'))];
        return !evaluate(withDeny, call).allowed;
      }),
    );
  });

  it('adding a deny permission never grants anything', () => {
    fc.assert(
      fc.property(roles, request, permission, (held, call, extra) => {
        const denied = { ...extra, is_denied: true };
        const before = evaluate(held, call).allowed;
        const after = evaluate([...held, roleOf('extra', denied)], call).allowed;
        return before || !after;
      }),
    );
  });

  it('an unconditional allow of * grants everything when nothing denies', () => {
    fc.assert(
      fc.property(request, (call) => evaluate([roleOf('admin', allow('*'))], call).allowed),
    );
  });

  it('is independent of the order of roles and permissions', () => {
    fc.assert(
      fc.property(roles, request, (held, call) => {
        const reversed = [...held].reverse().map((one) => ({ ...one, permissions: [...one.permissions].reverse() }));
        return evaluate(held, call).allowed === evaluate(reversed, call).allowed &&
          evaluate(held, call).reason === evaluate(reversed, call).reason;
      }),
    );
  });

  it('an allowed group call implies the tenant-wide call is allowed (lists may show the group)', () => {
    fc.assert(
      fc.property(roles, request, (held, call) => {
        if (call.group === undefined || !evaluate(held, call).allowed) return true;
        return evaluate(held, { action: call.action, ip: call.ip }).allowed;
      }),
    );
  });
});

describe('evaluate: examples', () => {
  it('says which role allowed or denied, and why nothing did', () => {
    expect(evaluate([roleOf('reviewer', allow('*:List'))], { action: 'roles:List' })).toEqual({
      allowed: true,
      reason: 'role "reviewer" allows roles:List',
    });
    expect(evaluate([roleOf('reviewer', allow('*:List'))], { action: 'roles:Update' })).toEqual({
      allowed: false,
      reason: 'your roles do not allow changing roles (roles:Update)',
    });
    expect(evaluate([roleOf('admin', allow('*')), roleOf('locked', deny('roles:*'))], { action: 'roles:Update' })).toEqual({
      allowed: false,
      reason: 'role "locked" denies roles:Update (actions matching "roles:*")',
    });
    expect(evaluate([], { action: 'roles:List' }).allowed).toBe(false);
  });

  it('applies a role with CIDR ranges only from inside them, and says so', () => {
    const office = { ...roleOf('office', allow('*')), cidr_ranges: ['10.0.0.0/8'] };
    expect(evaluate([office], { action: 'roles:List', ip: '10.1.1.1' }).allowed).toBe(true);
    expect(evaluate([office], { action: 'roles:List', ip: '127.0.0.1' })).toEqual({
      allowed: false,
      reason: '127.0.0.1 is outside the CIDR ranges of role "office"',
    });
    expect(evaluate([office], { action: 'roles:List' }).allowed).toBe(false);
  });

  it('narrows permissions to groups by name, by tag key and value on the same tag, with exclusions', () => {
    const [eu, us, ops] = GROUPS as [GroupFacts, GroupFacts, GroupFacts];
    const sales = roleOf('sales', allow('groups:*', { conditions: [{ names_matching: 'sales-*' }] }));
    expect(evaluate([sales], { action: 'groups:Get', group: eu }).allowed).toBe(true);
    expect(evaluate([sales], { action: 'groups:Get', group: ops }).allowed).toBe(false);
    expect(evaluate([sales], { action: 'groups:Get' }).allowed).toBe(true);

    const euOnly = roleOf('eu', allow('groups:*', { conditions: [{ keys_matching: 'region', values_matching: 'eu' }] }));
    expect(evaluate([euOnly], { action: 'groups:Get', group: eu }).allowed).toBe(true);
    expect(evaluate([euOnly], { action: 'groups:Get', group: us }).allowed).toBe(false);
    // Key of one tag and value of another do not combine.
    const crossed = roleOf('x', allow('groups:*', { conditions: [{ keys_matching: 'vip', values_matching: 'us' }] }));
    expect(evaluate([crossed], { action: 'groups:Get', group: us }).allowed).toBe(false);
    // All given matchers of a condition must hold.
    const both = roleOf('b', allow('groups:*', { conditions: [{ names_matching: 'sales-*', keys_matching: 'vip' }] }));
    expect(evaluate([both], { action: 'groups:Get', group: eu }).allowed).toBe(false);
    expect(evaluate([both], { action: 'groups:Get', group: us }).allowed).toBe(true);

    const exceptVip = roleOf('v', allow('groups:*', { conditions: [{ keys_matching: 'vip', is_denied: true }] }));
    expect(evaluate([exceptVip], { action: 'groups:Get', group: us }).allowed).toBe(false);
    expect(evaluate([exceptVip], { action: 'groups:Get', group: ops }).allowed).toBe(true);
  });

  it('lets a conditional deny hide groups without refusing the tenant-wide call', () => {
    const [eu, us] = GROUPS as [GroupFacts, GroupFacts];
    const held = [roleOf('admin', allow('*'), deny('groups:*', { conditions: [{ values_matching: 'us' }] }))];
    expect(evaluate(held, { action: 'groups:List' }).allowed).toBe(true);
    const filter = visibleGroupFilter(held, 'groups:List');
    expect(filter.unrestricted).toBe(false);
    expect(filter.allows(eu)).toBe(true);
    expect(filter.allows(us)).toBe(false);
    expect(visibleGroupFilter([roleOf('admin', allow('*'))], 'groups:List').unrestricted).toBe(true);
  });

  it('reads stored permissions defensively: a non-string matcher matches nothing', () => {
    const legacy = { role_reference: 'old', permissions: [{ actions_matching: ['*'] as unknown as string }] };
    expect(evaluate([legacy], { action: 'roles:List' }).allowed).toBe(false);
  });

  it('unions payload types and lists allowed actions in catalogue order', () => {
    const held: RoleLike[] = [
      { ...roleOf('a', allow('*:List')), payload_types: ['SMS', 'Call'] },
      { ...roleOf('b', allow('roles:Update')), payload_types: ['Call', 'Photo', 'Nonsense'] },
    ];
    expect(payloadTypesOf(held)).toEqual(['Call', 'SMS', 'Photo'].sort((x, y) => ORDER.indexOf(x) - ORDER.indexOf(y)));
    expect(allowedActions(held, [{ action: 'roles:List' }, 'roles:Update', 'roles:Delete'])).toEqual(['roles:List', 'roles:Update']);
  });
});

describe('evaluate: an action another includes (payloads:Download includes payloads:Play)', () => {
  const eu = GROUPS[0] as GroupFacts;
  const us = GROUPS[1] as GroupFacts;

  it('allows playing where downloading is allowed, and says through which action', () => {
    const downloader = [roleOf('legacy', allow('payloads:Download'))];
    expect(evaluate(downloader, { action: 'payloads:Play' })).toEqual({
      allowed: true,
      reason: 'role "legacy" allows payloads:Download, which includes payloads:Play',
    });
    expect(visibleGroupFilter(downloader, 'payloads:Play').unrestricted).toBe(true);
    expect(allowedActions(downloader, ['payloads:Download', 'payloads:Play'])).toEqual(['payloads:Download', 'payloads:Play']);
  });

  it('never the other way: playing does not include downloading', () => {
    const reviewer = [roleOf('reviewer', allow('payloads:Play'))];
    expect(evaluate(reviewer, { action: 'payloads:Play' }).allowed).toBe(true);
    expect(evaluate(reviewer, { action: 'payloads:Download' })).toEqual({ allowed: false, reason: 'your roles do not allow downloading recordings (payloads:Download)' });
  });

  it('a deny of playing itself beats an allowed download, and a denied download lends nothing', () => {
    const noPlay = [roleOf('a', allow('payloads:*'), deny('payloads:Play'))];
    expect(evaluate(noPlay, { action: 'payloads:Play' }).allowed).toBe(false);
    expect(evaluate(noPlay, { action: 'payloads:Download' }).allowed).toBe(true);
    const noDownload = [roleOf('b', allow('payloads:Download'), deny('payloads:Download'))];
    expect(evaluate(noDownload, { action: 'payloads:Play' }).allowed).toBe(false);
  });

  it("keeps the including action's group conditions", () => {
    const euOnly = [roleOf('eu', allow('payloads:Download', { conditions: [{ keys_matching: 'region', values_matching: 'eu' }] }))];
    const filter = visibleGroupFilter(euOnly, 'payloads:Play');
    expect(filter.unrestricted).toBe(false);
    expect(filter.allows(eu)).toBe(true);
    expect(filter.allows(us)).toBe(false);
  });
});

describe('evaluate: stored regexes this engine cannot read fail closed', () => {
  // `\b` and `(?i)` are RE2 syntax the matcher leaves out, so a role saved while they were accepted may hold them.
  const sales = GROUPS[0] as GroupFacts;
  const ops = GROUPS[2] as GroupFacts;

  it('an unreadable deny covers every action, an unreadable allow none', () => {
    const held = [roleOf('admin', allow('*')), roleOf('guard', deny('\\broles:Delete', { is_regex: true }))];
    expect(evaluate(held, { action: 'devices:List', ip: undefined }).allowed).toBe(false);
    expect(evaluate([roleOf('reader', allow('(?i)devices:list', { is_regex: true }))], { action: 'devices:List', ip: undefined }).allowed).toBe(false);
  });

  it('an unreadable condition narrows: an allow excludes with it, a deny includes with it', () => {
    const unreadable = { names_matching: '(?i)OPS', is_regex: true };
    const allowExcept = roleOf('admin', allow('*', { conditions: [{ ...unreadable, is_denied: true }] }));
    expect(evaluate([allowExcept], { action: 'groups:Get', group: sales, ip: undefined }).allowed).toBe(false);
    const allowOnly = roleOf('admin', allow('*', { conditions: [{ ...unreadable, is_denied: false }] }));
    expect(evaluate([allowOnly], { action: 'groups:Get', group: ops, ip: undefined }).allowed).toBe(false);
    const denyOn = [roleOf('admin', allow('*')), roleOf('guard', deny('*', { conditions: [{ ...unreadable, is_denied: false }] }))];
    expect(evaluate(denyOn, { action: 'groups:Get', group: sales, ip: undefined }).allowed).toBe(false);
    const denyExcept = [roleOf('admin', allow('*')), roleOf('guard', deny('*', { conditions: [{ ...unreadable, is_denied: true }] }))];
    expect(evaluate(denyExcept, { action: 'groups:Get', group: ops, ip: undefined }).allowed).toBe(false);
  });
});

describe('explainPermission', () => {
  it('says what a rule grants in one sentence', () => {
    expect(explainPermission(allow('*'))).toBe('Allows every action.');
    expect(explainPermission(allow('roles:List'))).toBe('Allows the action "roles:List".');
    expect(explainPermission(deny('roles:*'))).toBe('Denies actions matching "roles:*", everywhere.');
    expect(explainPermission({ actions_matching: 'devices:.*', is_regex: true })).toBe(
      'Allows actions matching the regular expression /devices:.*/.',
    );
    expect(
      explainPermission(
        allow('groups:*', {
          conditions: [
            { names_matching: 'sales-*' },
            { keys_matching: 'region', values_matching: 'eu' },
            { keys_matching: 'vip', is_denied: true },
          ],
        }),
      ),
    ).toBe(
      'Allows actions matching "groups:*" on groups whose name is like "sales-*", or with a tag whose key is like "region" and whose value is like "eu", except groups with a tag whose key is like "vip".',
    );
    expect(explainPermission(allow('*', { conditions: [{ names_matching: 'x', is_denied: true }] }))).toBe(
      'Allows every action on every group, except groups whose name is like "x".',
    );
  });
});
