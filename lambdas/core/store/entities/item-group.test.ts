import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readItemGroup } from './item-group.ts';

describe('an item’s group', () => {
  it('reads the group of any item that has one, and none of an item without', () => {
    expect(readItemGroup({ ...keys.device.item('acme', 'dev-1', 'ann', 'north'), device_reference: 'dev-1', group: 'north', services: ['left unread'] })).toEqual({ group: 'north' });
    expect(readItemGroup({ ...keys.device.item('acme', 'dev-2'), device_reference: 'dev-2' })).toEqual({});
  });

  it('refuses a group that is not a name, naming the entity and the path', () => {
    const item = { ...keys.device.item('acme', 'dev-3'), device_reference: 'dev-3', group: 7 };
    expect(() => readItemGroup(item)).toThrow(InternalError);
    expect(() => readItemGroup(item)).toThrow(/Device item .* group: /);
  });
});
