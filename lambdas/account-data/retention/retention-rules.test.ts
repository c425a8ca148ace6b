import { describe, expect, it } from 'vitest';
import { keys } from '#core/store/keys.ts';
import { dueMarkerItems, payloadDueMarkerItems } from './due-index.ts';
import { deletePasses, destroyPasses, dueRange, rulesOf } from './retention-rules.ts';

const now = new Date('2026-06-01T00:00:00.000Z');

describe('retention rules', () => {
  it('reads every indexed type of a partial policy, the rest from the defaults', () => {
    const rules = rulesOf({ GpsData: { delete_after_days: 10 }, PayloadData: [{ payload_type: 'SMS', delete_after_days: 5, destroy_after_days: 6, retention_timestamp: 'processed_at', required_receipts: 1, required_transfers: 0 }] });
    expect(rules.find((rule) => rule.recordType === 'GpsData')).toMatchObject({ deleteAfterDays: 10, destroyAfterDays: undefined, kind: 'at' });
    expect(rules.find((rule) => rule.payloadType === 'SMS')).toMatchObject({ deleteAfterDays: 5, destroyAfterDays: 6, kind: 'processed_at', requiredReceipts: 1 });
    // A type left out keeps its default: seven years from payload_time for a call.
    expect(rules.find((rule) => rule.payloadType === 'Call')).toMatchObject({ deleteAfterDays: 2557, kind: 'payload_time' });
    // Every record type of the policy has its rule, the six with a life of their own too (counted from their end).
    expect(rules.find((rule) => rule.recordType === 'DeviceUserData')).toMatchObject({ deleteAfterDays: 2923, destroyAfterDays: 3013, kind: 'at' });
    expect(rules.find((rule) => rule.recordType === 'SupervisionData')).toMatchObject({ deleteAfterDays: 2557, kind: 'at' });
    // The phones' ledger entries keep the calls' periods, counted from their own start time.
    const call = rules.find((rule) => rule.payloadType === 'Call');
    expect(rules.find((rule) => rule.recordType === 'CaptureLedgerData')).toMatchObject({ deleteAfterDays: call?.deleteAfterDays, destroyAfterDays: call?.destroyAfterDays, kind: 'at' });
    // Closed cases and their production log: custody records, counted from the closing.
    expect(rules.find((rule) => rule.recordType === 'CaseData')).toMatchObject({ deleteAfterDays: 2923, destroyAfterDays: 3013, kind: 'at' });
    // Erasure requests: the firm's evidence of its answer, six years from the request's end.
    expect(rules.find((rule) => rule.recordType === 'ErasureRequestData')).toMatchObject({ deleteAfterDays: 2192, destroyAfterDays: 2282, kind: 'at' });
    expect(new Set(rules.map((rule) => rule.recordType)).size).toBe(15);
  });

  it('destroys from the deleted stage, or straight from the live one when the rule never deletes', () => {
    const [both] = rulesOf({ GpsData: { delete_after_days: 1, destroy_after_days: 3 } }).filter((rule) => rule.recordType === 'GpsData');
    const [destroyOnly] = rulesOf({ GpsData: { destroy_after_days: 3 } }).filter((rule) => rule.recordType === 'GpsData');
    const [keptForever] = rulesOf({ GpsData: {} }).filter((rule) => rule.recordType === 'GpsData');
    expect(destroyPasses(both!, now).map((pass) => pass.stage)).toEqual(['DELETED']);
    expect(deletePasses(both!, now)).toMatchObject([{ action: 'Deleted', stage: 'LIVE', cutoff: '2026-05-31T00:00:00.000Z' }]);
    expect(destroyPasses(destroyOnly!, now).map((pass) => pass.stage)).toEqual(['DELETED', 'LIVE']);
    expect(deletePasses(destroyOnly!, now)).toEqual([]);
    expect([...destroyPasses(keptForever!, now), ...deletePasses(keptForever!, now)]).toEqual([]);
  });

  it('takes a base time equal to the cutoff as due, and one a millisecond later as not', () => {
    const [rule] = rulesOf({ GpsData: { delete_after_days: 1 } }).filter((one) => one.recordType === 'GpsData');
    const [pass] = deletePasses(rule!, now);
    const [low, high] = dueRange(pass!);
    const marker = (time: string) => String(dueMarkerItems('acme', { ...keys.gps.item('acme', { time, id: 'g1', deviceReference: 'd1' }), timestamp: time, gps_reference: 'g1' })[0]?.gsi1sk);
    const inRange = (key: string) => key >= low && key <= high;
    expect(inRange(marker('2026-05-31T00:00:00.000Z'))).toBe(true);
    expect(inRange(marker('2026-05-31T00:00:00.001Z'))).toBe(false);
  });
});

describe('due markers', () => {
  it('gives a payload one marker per time it has, in the stage its state puts it, and none once destroyed', () => {
    const payload = { payload_reference: 'p1', payload_type: 'Call', payload_state: 'Processed', payload_time: '2026-01-01T10:00:00+01:00', processed_at: '2026-01-02T00:00:00.000Z' };
    const markers = payloadDueMarkerItems('acme', payload);
    expect(markers.map((marker) => [marker.kind, marker.stage, marker.base_time])).toEqual([
      ['payload_time', 'LIVE', '2026-01-01T09:00:00.000Z'],
      ['processed_at', 'LIVE', '2026-01-02T00:00:00.000Z'],
    ]);
    expect(markers[0]?.gsi1pk).toBe('C#acme#RETAIN#PayloadData#Call#payload_time#LIVE');
    expect(markers[0]?.pk).toBe('C#acme#PAYLOAD#p1#RETAIN');
    expect(payloadDueMarkerItems('acme', { ...payload, payload_state: 'Deleted' }).map((marker) => marker.stage)).toEqual(['DELETED', 'DELETED']);
    expect(payloadDueMarkerItems('acme', { ...payload, payload_state: 'Destroyed' })).toEqual([]);
    expect(payloadDueMarkerItems('acme', payload, ['processed_at']).map((marker) => marker.kind)).toEqual(['processed_at']);
  });

  it('refuses a marker outside its record tenant and ignores entities no record type covers', () => {
    expect(() => keys.retentionDue.key('acme', { pk: 'C#other#PAYLOAD#p1', sk: 'PAYLOAD' }, 'payload_time')).toThrow();
    expect(dueMarkerItems('acme', { ...keys.role.item('acme', 'r1'), role_reference: 'r1' })).toEqual([]);
  });
});
