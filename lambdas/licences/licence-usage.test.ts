import { describe, expect, it } from 'vitest';
import { increasedServices, licenceUseChanges, licenceUseOperations, readLicences, DEFAULT_LICENCE_LIMIT } from './licence-usage.ts';
import { LicenceLimitError, licenceLine } from './licence-check.ts';

describe('licenceUseChanges', () => {
  it('counts only active users, once per service, and nets a change out', () => {
    expect(licenceUseChanges(undefined, { is_active: true, services: ['calls', 'sms', 'calls'] })).toEqual({ calls: 1, sms: 1 });
    expect(licenceUseChanges(undefined, { is_active: false, services: ['calls'] })).toEqual({});
    expect(licenceUseChanges({ is_active: true, services: ['calls', 'sms'] }, { is_active: true, services: ['sms', 'gps'] })).toEqual({ calls: -1, gps: 1 });
    expect(licenceUseChanges({ is_active: true, services: ['calls'] }, { is_active: false, services: ['calls'] })).toEqual({ calls: -1 });
    expect(licenceUseChanges({ is_active: false, services: ['calls'] }, { is_active: true, services: ['calls'] })).toEqual({ calls: 1 });
  });
});

describe('licenceUseOperations', () => {
  it('is empty when nothing changes', () => {
    expect(licenceUseOperations('demo', {})).toEqual([]);
  });

  it('decrements without a condition: an offboarding is never refused', () => {
    const [operation] = licenceUseOperations('demo', { calls: -1 });
    expect(operation).toMatchObject({ kind: 'update', key: { pk: 'C#demo#LICENCES', sk: 'LICENCES' }, update: { add: { used_calls: -1 } } });
    expect(operation).not.toHaveProperty('condition');
  });

  it('guards every increased service by its limit in one update', () => {
    const operations = licenceUseOperations('demo', { calls: 1, sms: -1, gps: 1 });
    expect(operations).toHaveLength(1);
    const [operation] = operations;
    if (operation?.kind !== 'update' || operation.condition?.kind !== 'expression') throw new Error('expected a conditional update');
    expect(operation.update.add).toEqual({ used_calls: 1, used_gps: 1, used_sms: -1 });
    expect(Object.values(operation.condition.names ?? {}).sort()).toEqual(['limit_calls', 'limit_gps', 'used_calls', 'used_gps']);
    // No placeholder may collide with the adapter's generated `#f<n>` / `:f<n>`.
    expect(operation.condition.expression).not.toMatch(/[#:]f\d/);
    expect(operation.condition.values).toMatchObject({ ':default': DEFAULT_LICENCE_LIMIT });
  });

  it('refuses fractions (a bug, never stored)', () => {
    expect(() => licenceUseOperations('demo', { calls: 0.5 })).toThrow();
  });

  it('lists the increased services in contract order', () => {
    expect(increasedServices({ videos: 1, calls: 1, sms: -1 })).toEqual(['calls', 'videos']);
  });
});

describe('readLicences', () => {
  it('shows the default limit until staff set one, and clamps drifted use at zero', () => {
    const licences = readLicences('demo', undefined);
    expect(licences.data).toHaveLength(8);
    expect(licences.data[0]).toEqual({ service: 'calls', limit: DEFAULT_LICENCE_LIMIT, used: 0 });
    const set = readLicences('demo', { limit_calls: 3, used_calls: 2, limit_sms: 0, used_sms: -4 });
    expect(set.data.find((entry) => entry.service === 'calls')).toEqual({ service: 'calls', limit: 3, used: 2 });
    expect(set.data.find((entry) => entry.service === 'sms')).toEqual({ service: 'sms', limit: 0, used: 0 });
  });
});

describe('LicenceLimitError', () => {
  it('is a 409 with one line per refused service', () => {
    const error = new LicenceLimitError([{ service: 'calls', limit: 2 }, { service: 'gps', limit: 0 }]);
    expect(error.status).toBe(409);
    expect(error.lines).toEqual(['services.calls: Licence limit of 2 reached for calls', 'services.gps: Licence limit of 0 reached for gps']);
    expect(licenceLine('sms', 5)).toBe('services.sms: Licence limit of 5 reached for sms');
  });
});
