import { describe, expect, it } from 'vitest';
import { scheduleNameOf, scheduleOf } from './schedules.ts';

describe('transfer schedules', () => {
  it('names a schedule within EventBridge rules, whatever the reference, one name per tenant and reference', () => {
    const long = `${'x'.repeat(200)} #/ünï`;
    for (const [client, reference] of [['acme', 'nightly'], ['a'.repeat(63), long]] as const) {
      expect(scheduleNameOf(client, reference)).toMatch(/^[0-9A-Za-z_.-]{1,64}$/);
    }
    expect(scheduleNameOf('acme', 'nightly')).toBe(scheduleNameOf('acme', 'nightly'));
    expect(scheduleNameOf('acme', 'nightly')).not.toBe(scheduleNameOf('other', 'nightly'));
    // The separator between tenant and reference keeps ('ab', 'c') and ('a', 'bc') apart.
    expect(scheduleNameOf('ab', 'c')).not.toBe(scheduleNameOf('a', 'bc'));
  });

  it('needs a schedule only while active with an expression', () => {
    const base = { client: 'acme', transfer_config_reference: 'nightly', schedule: 'rate(1 day)', is_active: true };
    expect(scheduleOf(base)).toEqual({
      name: scheduleNameOf('acme', 'nightly'),
      expression: 'rate(1 day)',
      timezone: 'UTC',
      target: { job: 'transfer', input: { client: 'acme', transfer_config_reference: 'nightly', trigger: 'schedule' } },
    });
    expect(scheduleOf({ ...base, is_active: false })).toBeUndefined();
    expect(scheduleOf({ ...base, schedule: '' })).toBeUndefined();
  });
});
