import { describe, expect, it } from 'vitest';
import { inServiceOrder, serviceLabel, usageOf } from './licence-labels.ts';
import { checkLimits } from './licence-form-model.ts';

describe('licence labels', () => {
  it('names services as people write them', () => {
    expect(serviceLabel('sms')).toBe('SMS');
    expect(serviceLabel('interviews')).toBe('Interviews');
  });

  it('warns as a licence fills and flags use past the limit', () => {
    expect(usageOf({ limit: 10, used: 5 })).toEqual({ percent: 50, colour: 'teal', over: false });
    expect(usageOf({ limit: 10, used: 9 }).colour).toBe('orange');
    expect(usageOf({ limit: 10, used: 12 })).toEqual({ percent: 100, colour: 'red', over: true });
    expect(usageOf({ limit: 0, used: 0 })).toEqual({ percent: 0, colour: 'gray', over: false });
  });

  it('lists every service in the contract order', () => {
    const ordered = inServiceOrder([{ service: 'sms', limit: 3, used: 1 }]);
    expect(ordered.map((entry) => entry.service)).toEqual(['calls', 'interviews', 'gps', 'photos', 'mms', 'rcs', 'sms', 'videos']);
    expect(ordered[6]).toEqual({ service: 'sms', limit: 3, used: 1 });
    expect(ordered[0]).toEqual({ service: 'calls', limit: 0, used: 0 });
  });
});

describe('licence form check', () => {
  const all = { calls: 10, interviews: 0, gps: 5, photos: 5, mms: 5, rcs: 5, sms: 5, videos: 5 };

  it('sends whole numbers from 0 to 100000 for every service', () => {
    expect(checkLimits(all)).toEqual({ ok: true, body: all });
  });

  it('names each field that is empty, fractional or out of range, the way the server would', () => {
    const checked = checkLimits({ ...all, calls: '', gps: 1.5, sms: 100_001, videos: -1 });
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.lines).toEqual([
        'body.calls: Enter a whole number from 0 to 100000',
        'body.gps: Enter a whole number from 0 to 100000',
        'body.sms: Enter a whole number from 0 to 100000',
        'body.videos: Enter a whole number from 0 to 100000',
      ]);
    }
  });
});
