import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.ts';
import { ConditionFailedError } from '../core/ports/table-store.ts';
import { counterAttribute, dismissedUsers, OCCURRENCE_RING, occurrencesFromSlots, SCOPE_SEVERITIES, userId } from './alert-model.ts';
import { alertAccessOf, staffAlertAccess, unionPermissions } from './alert-permissions.ts';
import { durationSeconds, expiryInstant } from './expiry.ts';
import { relatedEntity, relatedEntityString } from './related-entities.ts';
import { isContention, jitterMs, retryOnConflict } from './retry.ts';

const slot = (seq: number) => ({ pk: 'p', sk: `OCC#${seq % OCCURRENCE_RING}`, entity: 'AlertOccurrence', seq, time: `t${seq}`, message: `m${seq}` });

describe('occurrences ring', () => {
  it('orders by occurrence number and keeps the latest RING', () => {
    const slots = [3, 1, 2].map(slot);
    expect(occurrencesFromSlots(slots).map((o) => o.message)).toEqual(['m1', 'm2', 'm3']);
    const many = Array.from({ length: OCCURRENCE_RING + 5 }, (_, index) => slot(index + 1));
    const kept = occurrencesFromSlots(many);
    expect(kept).toHaveLength(OCCURRENCE_RING);
    expect(kept[0]?.message).toBe('m6');
  });
  it('ignores malformed slots', () => {
    expect(occurrencesFromSlots([{ pk: 'p', sk: 'OCC#1', entity: 'x', seq: '1' }])).toEqual([]);
  });
});

describe('alert model', () => {
  it('splits dismissed_by and never lets a user name add a separator', () => {
    expect(dismissedUsers({ dismissed_by: 'a,b' })).toEqual(['a', 'b']);
    expect(dismissedUsers({})).toEqual([]);
    expect(userId('evil,admin@demo.test')).toBe('evil%2Cadmin@demo.test');
  });
  it('has one counter per scope × severity', () => {
    expect(SCOPE_SEVERITIES).toHaveLength(6);
    expect(counterAttribute('sec', 'High')).toBe('sec_High');
  });
});

describe('permissions', () => {
  it('unions alert permissions over roles', () => {
    const union = unionPermissions([
      { alert_permissions: { ops_read: true, ops_write: false, sec_read: false, sec_write: false } },
      { alert_permissions: { ops_read: false, ops_write: false, sec_read: true, sec_write: false } },
      {},
    ]);
    expect(union).toEqual({ ops_read: true, ops_write: false, sec_read: true, sec_write: false });
  });
  it('gates read and write per scope; staff have all', () => {
    const reader = alertAccessOf('u', { ops_read: true, ops_write: false, sec_read: false, sec_write: false });
    expect([reader.canRead('ops'), reader.canRead('sec'), reader.canWrite('ops')]).toEqual([true, false, false]);
    expect(reader.readableScopes()).toEqual(['ops']);
    expect(staffAlertAccess('s').readableScopes()).toEqual(['ops', 'sec']);
  });
});

describe('expiry', () => {
  it('accepts seconds and ISO 8601 durations', () => {
    expect(durationSeconds(90)).toBe(90);
    expect(durationSeconds('PT15M')).toBe(900);
    expect(durationSeconds('P1DT2H')).toBe(93_600);
    expect(durationSeconds('P1W')).toBe(604_800);
    expect(expiryInstant(new Date('2025-01-01T00:00:00Z'), 'PT1H')).toBe('2025-01-01T01:00:00.000Z');
  });
  it.each(['P', 'PT', 'P1Y', '1D', 'PT-1S', 'P400D', '', 'PT0S'])('refuses %j with a 400 line', (value) => {
    expect(() => durationSeconds(value)).toThrow(ValidationError);
  });
  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s seconds', (value) => {
    expect(() => durationSeconds(value)).toThrow(/expires_after/);
  });
});

describe('related entities', () => {
  it('builds both links, encoding hostile references', () => {
    expect(relatedEntity('demo', 'Device', 'd-1')).toEqual({ api_link: '/api/v1/demo/devices/d-1', page_link: '/dashboard/devices/d-1' });
    expect(relatedEntity('demo', 'DeviceUser', '../x?y')).toEqual({
      api_link: '/api/v1/demo/users/..%2Fx%3Fy',
      page_link: '/dashboard/devices/users/..%2Fx%3Fy',
    });
    expect(relatedEntityString([{ page_link: '/a' }, { api_link: '/b' }])).toBe('/a,/b');
    expect(relatedEntityString([])).toBeUndefined();
  });
});

describe('retry', () => {
  it('knows contention from other failures', () => {
    expect(isContention(new ConditionFailedError())).toBe(true);
    expect(isContention({ name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }] })).toBe(true);
    expect(isContention({ name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'ValidationError' }] })).toBe(false);
    expect(isContention(new Error('boom'))).toBe(false);
  });
  it('bounds the jitter', () => {
    expect(jitterMs(20, () => 0.999)).toBeLessThan(200);
    expect(jitterMs(0, () => 0)).toBe(0);
  });
  it('redoes a contended attempt and gives up after the limit', async () => {
    let calls = 0;
    expect(await retryOnConflict(async () => (++calls < 3 ? Promise.reject(new ConditionFailedError()) : 'done'))).toBe('done');
    await expect(retryOnConflict(() => Promise.reject(new ConditionFailedError()), 2)).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(retryOnConflict(() => Promise.reject(new Error('other')))).rejects.toThrow('other');
  });
});
