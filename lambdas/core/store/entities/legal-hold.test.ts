import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { legalHoldToItem, readLegalHold, toLegalHold, type LegalHoldItem } from './legal-hold.ts';

const hold: LegalHoldItem = {
  client: 'acme',
  target: 'user#1',
  target_type: 'DeviceUser',
  is_active: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_by: 'u-1',
  updated_at: '2026-01-02T00:00:00.000Z',
};

describe('legal hold item', () => {
  it('round-trips under its target’s key in the tenant’s holds partition, without the tenant on the wire', () => {
    const item = legalHoldToItem(hold);
    expect(item).toMatchObject({ pk: 'C#acme#LEGAL_HOLDS', sk: 'HOLD#DeviceUser#user%231', entity: 'LegalHold' });
    expect(item).toMatchObject(keys.legalHold.key('acme', 'DeviceUser', 'user#1'));
    const { client: _tenant, ...wire } = hold;
    expect(toLegalHold(readLegalHold(item))).toEqual(wire);
  });

  it('lists one type’s holds by sort-key prefix, and no other tenant’s', () => {
    expect(keys.legalHold.list('acme', 'PortalUser')).toEqual({ partition: 'C#acme#LEGAL_HOLDS', sort: { beginsWith: 'HOLD#PortalUser#' } });
    // Every hold, and only holds: the partition also keeps the holds' earlier versions.
    expect(keys.legalHold.list('acme')).toEqual({ partition: 'C#acme#LEGAL_HOLDS', sort: { beginsWith: 'HOLD#' } });
    expect(() => keys.legalHold.key('ac#me', 'DeviceUser', 'x')).toThrow(/Not a client slug/);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...legalHoldToItem(hold), is_active: 'yes' };
    expect(() => readLegalHold(item)).toThrow(InternalError);
    expect(() => readLegalHold(item)).toThrow(/LegalHold item .* is_active: /);
  });
});
