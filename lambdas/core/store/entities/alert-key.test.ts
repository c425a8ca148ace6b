import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { alertKeyToItem, readAlertKey, type AlertKeyItem } from './alert-key.ts';

const pointer: AlertKeyItem = { client: 'demo', alert_scope: 'sec', alert_key: 'login:ada', alert_reference: '01J0' };

describe('alert key item', () => {
  it('round-trips under the scoped key', () => {
    const item = alertKeyToItem('demo', pointer);
    expect(item).toMatchObject(keys.alert.scopedKey('demo', 'sec', 'login:ada'));
    expect(readAlertKey(item)).toEqual(pointer);
  });

  it('refuses a pointer naming no alert, naming the path', () => {
    const { alert_reference: _reference, ...item } = alertKeyToItem('demo', pointer);
    expect(() => readAlertKey(item)).toThrow(InternalError);
    expect(() => readAlertKey(item)).toThrow(/AlertKey item .*alert_reference: /);
  });
});
