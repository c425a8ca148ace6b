import { describe, expect, it } from 'vitest';
import { toCountries } from './carriers.ts';
import { periodRange, toPayloadMetrics } from './list-metrics.ts';
import { periodOf } from './periods.ts';

describe('periodOf', () => {
  const at = new Date('2024-05-01T23:59:59.999Z');
  it('buckets an instant per scope (UTC)', () => {
    expect(['Daily', 'Weekly', 'Monthly', 'Yearly', 'Summary'].map((scope) => periodOf(scope as never, at))).toEqual([
      '2024-05-01',
      '2024-W18',
      '2024-05',
      '2024',
      'all',
    ]);
  });

  it('uses the ISO week-numbering year at year ends', () => {
    expect(periodOf('Weekly', new Date('2024-12-30T00:00:00Z'))).toBe('2025-W01');
    expect(periodOf('Weekly', new Date('2021-01-03T12:00:00Z'))).toBe('2020-W53');
    expect(periodOf('Weekly', new Date('2026-01-01T00:00:00Z'))).toBe('2026-W01');
    // Sunday still belongs to the week that started on Monday.
    expect(periodOf('Weekly', new Date('2024-05-05T00:00:00Z'))).toBe('2024-W18');
    expect(periodOf('Weekly', new Date('2024-05-06T00:00:00Z'))).toBe('2024-W19');
  });
});

describe('periodRange', () => {
  it('selects the periods the dates fall in, whole', () => {
    expect(periodRange('Monthly', '2024-05-10', '2024-07-02')).toEqual(['2024-05#', '2024-07$']);
    expect(periodRange('Daily', '2024-05-10-120000', undefined)).toEqual(['2024-05-10#', '~']);
    expect(periodRange('Weekly', undefined, '2024-12-31')).toEqual(['0', '2025-W01$']);
  });

  it('does not narrow Summary, nor a query without dates', () => {
    expect(periodRange('Summary', '2024-01-01', '2024-02-01')).toBeUndefined();
    expect(periodRange('Daily', undefined, undefined)).toBeUndefined();
  });

  it('keeps every device of the last period inside the bound', () => {
    const [lower, upper] = periodRange('Daily', '2024-05-01', '2024-05-01') ?? ['', ''];
    for (const device of ['a', '~~~', 'zz', '%23']) {
      const key = `2024-05-01#${device}`;
      expect(key > lower && key < upper).toBe(true);
    }
    expect('2024-05-02#a' < upper).toBe(false);
  });
});

describe('toPayloadMetrics', () => {
  it('reads the flat counters and leaves everything else out', () => {
    expect(
      toPayloadMetrics({
        pk: 'p',
        sk: 's',
        entity: 'PayloadMetrics',
        device_reference: 'd1',
        scope: 'Daily',
        period: '2024-05-01',
        n_Call: 2,
        n_SMS: 1,
        secret: 'x',
        first_occurrence: '2024-05-01T01:00:00.000Z',
      }),
    ).toEqual({ device_reference: 'd1', scope: 'Daily', period: '2024-05-01', counts: { Call: 2, SMS: 1 }, first_occurrence: '2024-05-01T01:00:00.000Z' });
  });
});

describe('toCountries', () => {
  it('groups carriers by country in order, with the clients that saw each', () => {
    const countries = toCountries([
      { pk: 'p', sk: '44#a', entity: 'CarrierSeen', country_code: 44, country_name: 'United Kingdom', carrier_code: '234-10', carrier_name: 'O2', cl_demo: 3, cl_acme: 1 },
      { pk: 'p', sk: '44#b', entity: 'CarrierSeen', country_code: 44, carrier_code: '234-15', carrier_name: 'Vodafone', cl_demo: 1, first_seen: 't1', last_seen: 't2' },
      { pk: 'p', sk: '49#a', entity: 'CarrierSeen', country_code: 49, carrier_code: '262-01', carrier_name: 'Telekom', cl_acme: 1 },
    ]);
    expect(countries.map((country) => [country.country_code, country.country_name, country.carriers.map((carrier) => carrier.carrier_name)])).toEqual([
      [44, 'United Kingdom', ['O2', 'Vodafone']],
      [49, '+49', ['Telekom']],
    ]);
    expect(countries[0]?.carriers[0]?.clients).toEqual(['acme', 'demo']);
    expect(countries[0]?.carriers[1]).toMatchObject({ first_seen: 't1', last_seen: 't2' });
  });
});
