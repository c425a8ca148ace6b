import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { alertOccurrenceToItem, alertToItem, readAlert, readAlertOccurrence, toAlert, toAlertOccurrences, type AlertItem } from './alert.ts';

const alert: AlertItem = {
  client: 'demo',
  alert_reference: '01J00000000000000000000ALR',
  alert_scope: 'ops',
  alert_type: 'PayloadAlert',
  alert_subject: 'Payload Failed',
  alert_key: 'p1',
  alert_key_type: 'Scoped',
  alert_message: 'checksum mismatch',
  alert_state: 'Triggered',
  alert_severity: 'High',
  expires_after: '2026-02-01T00:00:00.000Z',
  related_entities: [{ api_link: '/api/v1/demo/payloads/p1' }],
  first_occurrence: '2026-01-01T00:00:00.000Z',
  last_occurrence: '2026-01-02T00:00:00.000Z',
  occurrence_count: 3,
  dismiss_count: 0,
};

describe('alert item', () => {
  it('round-trips: both occurrence lists and the expiry queue, read back, and the contract shape without bookkeeping', () => {
    const item = alertToItem('demo', alert);
    expect(item).toMatchObject({
      ...keys.alert.item('demo', alert.alert_reference, alert.last_occurrence, alert.first_occurrence),
      ...keys.alert.expiryKeys('demo', alert.alert_reference, '2026-02-01T00:00:00.000Z'),
    });
    expect(readAlert(item)).toEqual(alert);
    const shown = toAlert(readAlert(item), [{ time: alert.last_occurrence, message: 'm' }]);
    expect(shown).not.toHaveProperty('pk');
    expect(shown).not.toHaveProperty('occurrence_count');
    expect(shown).not.toHaveProperty('dismiss_count');
    expect(shown).toMatchObject({ alert_reference: alert.alert_reference, occurrences: [{ time: alert.last_occurrence, message: 'm' }] });
  });

  it('leaves an alert without an expiry out of the expiry queue', () => {
    const { expires_after: _expiry, ...lasting } = alert;
    expect(alertToItem('demo', lasting)).not.toHaveProperty('gsi3pk');
  });

  it('refuses a malformed alert, naming the path', () => {
    const item = { ...alertToItem('demo', alert), alert_state: 'Snoozed' };
    expect(() => readAlert(item)).toThrow(InternalError);
    expect(() => readAlert(item)).toThrow(/Alert item .*alert_state: /);
  });

  it('reads the ring of occurrences oldest first, the latest `ring` of them, skipping a slot that does not read', () => {
    const slots = [3, 1, 2].map((seq) => alertOccurrenceToItem('demo', 'a', seq - 1, { seq, time: `t${seq}`, message: `m${seq}` }));
    expect(readAlertOccurrence(slots[0] as never)).toEqual({ seq: 3, time: 't3', message: 'm3' });
    expect(toAlertOccurrences([...slots, { pk: 'p', sk: 'OCC#0009', entity: 'AlertOccurrence', seq: '9' }], 2)).toEqual([
      { time: 't2', message: 'm2' },
      { time: 't3', message: 'm3' },
    ]);
    expect(() => readAlertOccurrence({ pk: 'p', sk: 'OCC#0009', entity: 'AlertOccurrence', seq: 9 })).toThrow(/AlertOccurrence item .*time: /);
  });
});
