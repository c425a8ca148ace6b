import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import {
  APPLY_STOPPED_MESSAGE,
  readSupervisionPolicy,
  supervisionPolicyToItem,
  toSupervisionPolicy,
  type SupervisionPolicyItem,
} from './supervision-policy.ts';

const policy: SupervisionPolicyItem = {
  client: 'acme',
  policy_reference: 'guarantees',
  kind: 'Lexicon',
  is_enabled: true,
  scope: { group_conditions: [], device_user_references: [], payload_types: ['SMS'] },
  terms: ['guarantee'],
  sample_minimum: 1,
  review_days: 7,
  sampling_seed: 'ab'.repeat(32),
  policy_version: 3,
  updated_by: 'u-1',
  updated_at: '2026-01-02T03:04:05.000Z',
};

const running = {
  state: 'Running' as const,
  from: '2026-01-01T00:00:00.000Z',
  to: '2026-01-31T23:59:59.999Z',
  started_at: '2026-02-01T10:00:00.000Z',
  started_by: 'u-1',
  scanned: 200,
  raised: 3,
};

describe('supervision policy item', () => {
  it('round-trips under the tenant\'s policy keys and answers without its run and lease', () => {
    const stored = { ...policy, last_apply: running, apply_run: running.started_at, apply_lease_until: '2026-02-01T10:10:00.000Z' };
    const item = supervisionPolicyToItem('acme', stored);
    expect(item).toMatchObject(keys.supervisionPolicy.item('acme', 'guarantees'));
    expect(item.pk).toBe('C#acme#SUPERVISION_POLICIES');
    expect(readSupervisionPolicy(item)).toEqual(stored);
    const answered = toSupervisionPolicy(readSupervisionPolicy(item), new Date('2026-02-01T10:05:00.000Z'));
    expect(answered).not.toHaveProperty('apply_run');
    expect(answered).not.toHaveProperty('apply_lease_until');
    expect(answered.last_apply).toEqual(running);
  });

  it('shows a Running apply whose lease ran out as Failed, saying so, and leaves a finished one alone', () => {
    const stored = { ...policy, last_apply: running, apply_run: running.started_at, apply_lease_until: '2026-02-01T10:10:00.000Z' };
    const later = new Date('2026-02-01T10:10:00.001Z');
    expect(toSupervisionPolicy(stored, later).last_apply).toEqual({ ...running, state: 'Failed', message: APPLY_STOPPED_MESSAGE });
    const completed = { ...policy, last_apply: { ...running, state: 'Completed' as const, finished_at: '2026-02-01T10:01:00.000Z' } };
    expect(toSupervisionPolicy(completed, later).last_apply?.state).toBe('Completed');
  });

  it('keeps a list prefix within the tenant\'s policies', () => {
    expect(keys.supervisionPolicy.list('acme', 'gua#x')).toEqual({ partition: 'C#acme#SUPERVISION_POLICIES', sort: { beginsWith: 'POLICY#gua%23x' } });
  });

  it('refuses a malformed item with an InternalError naming the entity and the path', () => {
    const item = { ...supervisionPolicyToItem('acme', policy), policy_version: 'three' };
    expect(() => readSupervisionPolicy(item)).toThrow(InternalError);
    expect(() => readSupervisionPolicy(item)).toThrow(/SupervisionPolicy item .* policy_version: /);
  });
});
