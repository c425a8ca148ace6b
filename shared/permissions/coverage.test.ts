import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAYLOAD_TYPES } from '../constants/payloads.ts';
import { covers, grantsBeyond as excesses, type CoveredRole } from './coverage.ts';

/** The sentences only: most cases assert on the wording. */
const grantsBeyond = (...args: Parameters<typeof excesses>) => excesses(...args).map((excess) => excess.message);
import { evaluate, type GroupFacts } from './evaluate.ts';

const NO_ALERTS = { ops_read: false, ops_write: false, sec_read: false, sec_write: false };

const role = (permissions: CoveredRole['permissions'], extra: Partial<CoveredRole> = {}): CoveredRole => ({
  role_reference: 'r',
  permissions,
  payload_types: [...PAYLOAD_TYPES],
  cidr_ranges: [],
  alert_permissions: NO_ALERTS,
  ...extra,
});
const allow = (actions_matching: string, more: Record<string, unknown> = {}) => ({ actions_matching, ...more });
const deny = (actions_matching: string, more: Record<string, unknown> = {}) => ({ actions_matching, is_denied: true, ...more });

/** The narrow role of the red-team finding: manages roles, lists SMS only. */
const NARROW = role([allow('roles:*'), allow('payloads:List')], { payload_types: ['SMS'] });
const ADMIN = role([allow('*')], { alert_permissions: { ops_read: true, ops_write: true, sec_read: true, sec_write: true } });

describe('grantsBeyond: hostile attempts to widen a role', () => {
  it('refuses the found escalation: a roles:* holder rewriting the role to *', () => {
    const problems = grantsBeyond([NARROW], role([allow('*')], { payload_types: ['SMS'] }));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^It allows .* where your roles do not/);
    expect(problems[1]).toMatch(/Its actions pattern "\*" could match actions added later/);
  });

  it('refuses a regex .* as much as the wildcard', () => {
    expect(grantsBeyond([NARROW], role([allow('.*', { is_regex: true })], { payload_types: ['SMS'] })).join('\n')).toMatch(/It allows/);
  });

  it('refuses a regex of actions the holder does not hold, and one it cannot prove for later actions', () => {
    expect(covers([NARROW], role([allow('(roles|payloads):List', { is_regex: true })], { payload_types: ['SMS'] }))).toBe(false);
    // Today's catalogue would be fine, but a later `roles:…` action is not provably in `roles:*` for a regex.
    const problems = grantsBeyond([NARROW], role([allow('roles:(List|Read)', { is_regex: true })], { payload_types: ['SMS'] }));
    expect(problems).toEqual([expect.stringMatching(/regex "roles:\(List\|Read\)" could match actions added later/)]);
  });

  it('accepts the same role, a narrower one, and a wildcard within a held wildcard', () => {
    expect(grantsBeyond([NARROW], NARROW)).toEqual([]);
    expect(grantsBeyond([NARROW], role([allow('roles:List')], { payload_types: ['SMS'] }))).toEqual([]);
    expect(grantsBeyond([NARROW], role([allow('roles:L*')], { payload_types: [] }))).toEqual([]);
    expect(grantsBeyond([ADMIN], role([allow('(devices|groups):.*', { is_regex: true })]))).toEqual([]);
  });

  it('refuses widening payload types', () => {
    expect(grantsBeyond([NARROW], role([allow('payloads:List')], { payload_types: ['SMS', 'Call'] }))).toEqual([
      'It opens payload types your roles do not: Call',
    ]);
  });

  it('refuses alert permissions the holder lacks', () => {
    expect(grantsBeyond([NARROW], role([allow('roles:List')], { payload_types: [], alert_permissions: { ...NO_ALERTS, sec_read: true } }))).toEqual([
      'It gives alert permissions your roles do not: sec_read',
    ]);
  });

  const NOT_COMPLIANCE = role([allow('*'), deny('*', { conditions: [{ names_matching: 'compliance' }] })]);

  it('refuses dropping a deny the holder is bound by', () => {
    expect(covers([NOT_COMPLIANCE], role([allow('devices:List')]))).toBe(false);
    expect(covers([NOT_COMPLIANCE], role([allow('*')]))).toBe(false);
  });

  it('accepts carrying the deny, as a deny or as an excluding condition', () => {
    expect(grantsBeyond([NOT_COMPLIANCE], NOT_COMPLIANCE)).toEqual([]);
    expect(grantsBeyond([NOT_COMPLIANCE], role([allow('devices:List', { conditions: [{ names_matching: 'compliance', is_denied: true }] })]))).toEqual([]);
    // A wider deny than the holder's is fine (more restrictive).
    expect(grantsBeyond([NOT_COMPLIANCE], role([allow('*'), deny('*', { conditions: [{ names_matching: 'compl*' }] })]))).toEqual([]);
    // A narrower one is not: group `compliance-eu`… is fine, but `compliance` itself is not carried.
    expect(covers([NOT_COMPLIANCE], role([allow('*'), deny('*', { conditions: [{ names_matching: 'compliance-*' }] })]))).toBe(false);
  });

  it('refuses a deny carried only for some actions when the holder denies every action', () => {
    expect(covers([NOT_COMPLIANCE], role([allow('*'), deny('devices:*', { conditions: [{ names_matching: 'compliance' }] })]))).toBe(false);
  });

  const LONDON = role([allow('devices:*', { conditions: [{ names_matching: 'london-*' }] })]);
  const EU_TAG = role([allow('devices:*', { conditions: [{ keys_matching: 'region', values_matching: 'eu' }] })]);

  it('refuses dropping a group condition', () => {
    expect(covers([LONDON], role([allow('devices:List')]))).toBe(false);
    expect(covers([EU_TAG], role([allow('devices:List', { conditions: [{ keys_matching: 'region' }] })]))).toBe(false);
    expect(covers([EU_TAG], role([allow('devices:List', { conditions: [{ values_matching: 'eu' }] })]))).toBe(false);
    expect(covers([LONDON], role([allow('devices:List', { conditions: [{ names_matching: 'london-*', is_regex: true }] })]))).toBe(false);
  });

  it('accepts narrowing a group condition, by name and by tag', () => {
    expect(grantsBeyond([LONDON], role([allow('devices:List', { conditions: [{ names_matching: 'london-equities' }] })]))).toEqual([]);
    expect(grantsBeyond([LONDON], role([allow('devices:List', { conditions: [{ names_matching: 'london-eq*' }] })]))).toEqual([]);
    expect(grantsBeyond([LONDON], role([allow('devices:List', { conditions: [{ names_matching: 'london-*', keys_matching: 'desk' }] })]))).toEqual([]);
    expect(grantsBeyond([EU_TAG], role([allow('devices:List', { conditions: [{ names_matching: 'x', keys_matching: 'region', values_matching: 'eu' }] })]))).toEqual([]);
  });

  it('accepts a union of groups the holder holds through two permissions', () => {
    const both = role([allow('devices:List', { conditions: [{ names_matching: 'a' }] }), allow('devices:List', { conditions: [{ names_matching: 'b' }] })]);
    expect(grantsBeyond([both], role([allow('devices:List', { conditions: [{ names_matching: 'a' }, { names_matching: 'b' }] })]))).toEqual([]);
  });

  it('refuses regex group conditions it cannot compare, unless they are the holder’s own', () => {
    const regexHeld = role([allow('devices:List', { conditions: [{ names_matching: 'lon.*', is_regex: true }] })]);
    expect(grantsBeyond([regexHeld], regexHeld)).toEqual([]);
    expect(covers([regexHeld], role([allow('devices:List', { conditions: [{ names_matching: 'lond.*', is_regex: true }] })]))).toBe(false);
    // A plain name inside the held regex is proven by matching it.
    expect(grantsBeyond([regexHeld], role([allow('devices:List', { conditions: [{ names_matching: 'london' }] })]))).toEqual([]);
  });

  const OFFICE = role([allow('*')], { cidr_ranges: ['10.0.0.0/8'] });

  it('refuses removing or widening CIDR ranges, accepts narrowing them', () => {
    expect(grantsBeyond([OFFICE], role([allow('devices:List')]))[0]).toMatch(/applies from any address/);
    expect(covers([OFFICE], role([allow('devices:List')], { cidr_ranges: ['10.0.0.0/7'] }))).toBe(false);
    expect(covers([OFFICE], role([allow('devices:List')], { cidr_ranges: ['10.0.0.0/8', '192.168.0.0/16'] }))).toBe(false);
    expect(grantsBeyond([OFFICE], role([allow('devices:List')], { cidr_ranges: ['10.1.0.0/16'] }))).toEqual([]);
    expect(grantsBeyond([OFFICE], role([allow('devices:List')], { cidr_ranges: ['10.0.0.0/8'] }))).toEqual([]);
  });

  it('keeps a held deny whatever its ranges, but counts an allow only where it reaches', () => {
    const denyAtOffice = role([deny('devices:*')], { cidr_ranges: ['10.0.0.0/8'] });
    expect(covers([ADMIN, denyAtOffice], role([allow('devices:List')]))).toBe(false);
    expect(covers([ADMIN, denyAtOffice], role([allow('devices:List'), deny('devices:*')]))).toBe(true);
  });

  it('refuses an including action the holder denies: Download includes Play', () => {
    const noPlay = role([allow('payloads:*'), deny('payloads:Play')]);
    expect(covers([noPlay], role([allow('payloads:Download')]))).toBe(false);
    expect(covers([noPlay], role([allow('payloads:Download'), deny('payloads:Play')]))).toBe(true);
  });

  it('names the field each excess lies in', () => {
    const office = role([allow('roles:*')], { cidr_ranges: ['10.0.0.0/8'], payload_types: ['SMS'] });
    const wider = role([allow('roles:List')], { payload_types: ['SMS', 'Call'], alert_permissions: { ...NO_ALERTS, ops_read: true } });
    expect(excesses([office], wider).map((excess) => excess.field)).toEqual(['cidr_ranges', 'permissions', 'payload_types', 'alert_permissions']);
  });

  it('refuses everything to a holder with no roles', () => {
    expect(covers([], role([allow('roles:List')], { payload_types: [] }))).toBe(false);
  });

  it('requires a held deny on later actions to be carried', () => {
    const noDevices = role([allow('*'), deny('devices:*')]);
    expect(grantsBeyond([noDevices], noDevices)).toEqual([]);
    // Every devices action of today denied by name: fine today, but a later devices action would be allowed.
    const byName = role([allow('*'), deny('devices:List'), deny('devices:Read'), deny('devices:Update')]);
    expect(grantsBeyond([noDevices], byName, ['devices:List', 'devices:Read', 'devices:Update', 'roles:List'])).toEqual([
      'Your roles deny actions matching "devices:*": this role must deny them too',
    ]);
  });
});

// ---------------------------------------------------------------- soundness, by property

const ACTIONS = ['roles:List', 'roles:Update', 'groups:Get', 'devices:List', 'payloads:Download', 'payloads:Play'];
const GROUPS: GroupFacts[] = [
  { name: 'sales-eu', tags: [{ tag_key: 'region', tag_value: 'eu' }] },
  { name: 'sales-us', tags: [{ tag_key: 'region', tag_value: 'us' }, { tag_key: 'vip', tag_value: null }] },
  { name: 'ops', tags: [] },
  { name: 'compliance', tags: [{ tag_key: 'region', tag_value: 'eu' }] },
];
const IPS = ['10.1.2.3', '10.200.0.1', '192.168.0.1', undefined];

const condition = fc.record(
  {
    names_matching: fc.constantFrom('sales-*', 'ops', '*', 'compliance', 'sales-e?'),
    keys_matching: fc.constantFrom('region', 'vip', '*'),
    values_matching: fc.constantFrom('eu', 'us', '*'),
    is_denied: fc.boolean(),
    is_regex: fc.constant(false),
  },
  { requiredKeys: ['is_denied', 'is_regex'] },
);
const permission = fc
  .record({
    pattern: fc.constantFrom<[string, boolean]>(['*', false], ['roles:*', false], ['*:List', false], ['payloads:*', false], ['devices:List', false], ['payloads:Download', false], ['payloads:Play', false], ['(roles|groups):.*', true]),
    is_denied: fc.boolean(),
    conditions: fc.option(fc.array(condition, { maxLength: 2 }), { nil: undefined }),
  })
  .map(({ pattern: [actions_matching, is_regex], is_denied, conditions }) => ({ actions_matching, is_regex, is_denied, ...(conditions === undefined ? {} : { conditions }) }));
const arbitraryRole = fc.record({
  role_reference: fc.constantFrom('a', 'b', 'c'),
  permissions: fc.array(permission, { minLength: 1, maxLength: 4 }),
  cidr_ranges: fc.constantFrom([], ['10.0.0.0/8'], ['10.1.0.0/16'], ['192.168.0.0/16']),
  payload_types: fc.subarray(['Call', 'SMS', 'MMS', 'Photo']),
});

describe('grantsBeyond: sound on the evaluation model', () => {
  it('whenever it says the held roles cover a role, they allow everything that role allows', () => {
    let proven = 0;
    fc.assert(
      fc.property(fc.array(arbitraryRole, { minLength: 1, maxLength: 3 }), arbitraryRole, (held, candidate) => {
        if (!covers(held, candidate, ACTIONS)) return;
        proven += 1;
        for (const action of ACTIONS) {
          for (const ip of IPS) {
            for (const group of [undefined, ...GROUPS]) {
              const request = { action, ip, ...(group === undefined ? {} : { group }) };
              if (evaluate([candidate], request).allowed) expect(evaluate(held, request).allowed, JSON.stringify({ request, held, candidate })).toBe(true);
            }
          }
        }
      }),
      { numRuns: 1500 },
    );
    // The property must not hold vacuously.
    expect(proven).toBeGreaterThan(50);
  }, 60_000);

  it('a role always covers itself unless its patterns leave later actions unprovable', () => {
    fc.assert(
      fc.property(arbitraryRole, (candidate) => {
        const problems = grantsBeyond([candidate], candidate, ACTIONS);
        expect(problems.filter((problem) => !/added later|must deny them too/.test(problem))).toEqual([]);
      }),
      { numRuns: 500 },
    );
  }, 30_000);
});
