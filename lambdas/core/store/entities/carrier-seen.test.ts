import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readCarrierSeen } from './carrier-seen.ts';

const item = {
  ...keys.carrier.item(44, 'VOD'),
  entity: 'CarrierSeen',
  country_code: 44,
  country_name: 'United Kingdom',
  carrier_code: 'VOD',
  carrier_name: 'Vodafone',
  first_seen: '2026-01-01T00:00:00.000Z',
  cl_zeta: 2,
  cl_acme: 1,
};

describe('carrier seen item', () => {
  it('reads the carrier and the clients that saw it (from its counters), sorted, without the keys', () => {
    expect(readCarrierSeen(item)).toEqual({
      country_code: 44,
      country_name: 'United Kingdom',
      carrier_code: 'VOD',
      carrier_name: 'Vodafone',
      first_seen: '2026-01-01T00:00:00.000Z',
      clients: ['acme', 'zeta'],
    });
  });

  it('refuses a carrier without its code, naming the path', () => {
    const { carrier_code: _code, ...broken } = item;
    expect(() => readCarrierSeen(broken)).toThrow(InternalError);
    expect(() => readCarrierSeen(broken)).toThrow(/CarrierSeen item .*carrier_code: /);
  });
});
