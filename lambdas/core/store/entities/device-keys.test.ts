import { describe, expect, it } from 'vitest';
import { deviceKeysToItems, readDeviceKeys } from './device-keys.ts';

const stored = {
  client: 'demo',
  tenant_key_id: 'tenant/demo',
  kek_id: 'kek/demo/01J0000000000000000000000',
  wrapped_enrolment_key: 'ZW5yb2xtZW50',
  wrapped_kek: 'a2Vr',
};

describe('device keys item', () => {
  it('writes the current keys and the KEK copy with the same attributes, and reads them back', () => {
    const { current, byKek } = deviceKeysToItems(stored);
    expect(current.sk).toBe('CURRENT');
    expect(byKek.pk).toBe(current.pk);
    expect(byKek.sk).not.toBe(current.sk);
    expect(readDeviceKeys(current)).toEqual(stored);
    expect(readDeviceKeys(byKek)).toEqual(stored);
  });

  it('names the entity and the path of a malformed stored item', () => {
    const { current } = deviceKeysToItems(stored);
    expect(() => readDeviceKeys({ ...current, wrapped_kek: 42 })).toThrow(/DeviceKeys.*wrapped_kek/);
  });
});
