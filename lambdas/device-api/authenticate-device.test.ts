import { describe, expect, it } from 'vitest';
import { installStateOf } from './authenticate-device.ts';

const known = { pk: 'p', sk: 's', entity: 'Device', installation_id: 'i1', imeis: ['111111111111111'] };

describe('install state', () => {
  it('follows the documented rule', () => {
    expect(installStateOf(undefined, { imeis: ['111111111111111'] })).toBe('NoInstallationId');
    expect(installStateOf(known, { imeis: ['111111111111111'] })).toBe('NoInstallationId');
    expect(installStateOf(undefined, { installation_id: 'i1', imeis: ['111111111111111'] })).toBe('NewInstall');
    expect(installStateOf(known, { installation_id: 'i1', imeis: ['222222222222222'] })).toBe('NoChange');
    expect(installStateOf({ ...known, installation_id: undefined }, { installation_id: 'i9', imeis: ['111111111111111'] })).toBe('NoChange');
    expect(installStateOf(known, { installation_id: 'i2', imeis: ['222222222222222', '111111111111111'] })).toBe('FactoryReset');
    expect(installStateOf(known, { installation_id: 'i2', imeis: ['222222222222222'] })).toBe('NewInstall');
  });
});
