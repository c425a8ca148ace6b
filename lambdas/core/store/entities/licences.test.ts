import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { limitAttribute, readLicencesItem, usedAttribute } from './licences.ts';

describe('licences item', () => {
  it('reads the limits staff set and the use counted so far; a counter never set is absent', () => {
    const item = { ...keys.licence.item('acme'), entity: 'Licences', client: 'acme', limit_calls: 5, used_calls: 2, used_sms: 1, updated_by: 'staff:s' };
    const licences = readLicencesItem(item);
    expect(licences).toEqual({ client: 'acme', limit_calls: 5, used_calls: 2, used_sms: 1, updated_by: 'staff:s' });
    expect(licences[limitAttribute('sms')]).toBeUndefined();
    expect(licences[usedAttribute('calls')]).toBe(2);
  });

  it('refuses a counter that is not a number, naming the path', () => {
    const item = { ...keys.licence.item('acme'), entity: 'Licences', used_calls: '2' };
    expect(() => readLicencesItem(item)).toThrow(InternalError);
    expect(() => readLicencesItem(item)).toThrow(/Licences item .*used_calls: /);
  });
});
