import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { alertCount, counterAttribute, readAlertCounter } from './alert-counter.ts';

describe('alert counter item', () => {
  it('reads the counters ADDed so far; an absent one counts 0', () => {
    const item = { ...keys.alert.tenantCounter('demo'), ops_High: 2, sec_Low: 1 };
    const counters = readAlertCounter(item);
    expect(counters).toEqual({ ops_High: 2, sec_Low: 1 });
    expect(alertCount(counters, 'ops', 'High')).toBe(2);
    expect(alertCount(counters, 'ops', 'Low')).toBe(0);
    expect(alertCount(undefined, 'sec', 'Low')).toBe(0);
    expect(counterAttribute('sec', 'Medium')).toBe('sec_Medium');
  });

  it('refuses a counter that is not a number, naming the path', () => {
    const item = { ...keys.alert.userCounter('demo', 'ada'), ops_High: '2' };
    expect(() => readAlertCounter(item)).toThrow(InternalError);
    expect(() => readAlertCounter(item)).toThrow(/AlertCounter item .*ops_High: /);
  });
});
