import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { monitoringSettings } from './monitoring.ts';

const RUM = {
  rumApplicationId: '0f0e0d0c-0b0a-4908-8706-050403020100',
  rumRegion: 'eu-west-2',
  rumConfig: { identityPoolId: 'eu-west-2:pool', telemetries: ['performance', 'errors'] },
};

describe('monitoringSettings', () => {
  it('starts only with all three settings', () => {
    expect(monitoringSettings(parseConfig({ runtime: RUM }), 'portal.example.com')).toEqual({
      applicationId: RUM.rumApplicationId,
      region: 'eu-west-2',
      config: RUM.rumConfig,
    });
    for (const missing of ['rumApplicationId', 'rumRegion', 'rumConfig'] as const) {
      const partial = { ...RUM, [missing]: undefined };
      expect(monitoringSettings(parseConfig({ runtime: partial }), 'portal.example.com')).toBeUndefined();
    }
  });

  it('never starts in local mode, said or implied by a loopback host', () => {
    expect(monitoringSettings(parseConfig({ runtime: { ...RUM, mode: 'local' } }), 'portal.example.com')).toBeUndefined();
    expect(monitoringSettings(parseConfig({ runtime: RUM }), 'localhost')).toBeUndefined();
    expect(monitoringSettings(parseConfig({ runtime: { ...RUM, mode: 'aws' } }), 'localhost')).toBeDefined();
  });

  it('refuses malformed settings at start rather than sending data to the wrong place', () => {
    expect(() => parseConfig({ runtime: { ...RUM, rumRegion: 'Europe' } })).toThrow('rumRegion: must be an AWS region');
    expect(() => parseConfig({ runtime: { ...RUM, rumApplicationId: 'x' } })).toThrow('rumApplicationId');
  });
});
