import { describe, expect, it } from 'vitest';
import { DEVICE_COMMAND_STATES, type DeviceCommandState } from '#shared/constants/devices.ts';
import { canTransition, isFinal, isPending } from './transitions.ts';

const allowed = new Set(['Sent>Acknowledged', 'Sent>Completed', 'Sent>Failed', 'Acknowledged>Completed', 'Acknowledged>Failed']);

describe('command transitions', () => {
  const pairs = DEVICE_COMMAND_STATES.flatMap((from) => DEVICE_COMMAND_STATES.map((to) => [from, to] as [DeviceCommandState, DeviceCommandState]));

  it.each(pairs)('%s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(allowed.has(`${from}>${to}`));
  });

  it('covers every pair, and nothing leads back to Sent or out of a final state', () => {
    expect(pairs).toHaveLength(16);
    for (const from of DEVICE_COMMAND_STATES) expect(canTransition(from, 'Sent')).toBe(false);
    for (const to of DEVICE_COMMAND_STATES) {
      expect(canTransition('Completed', to)).toBe(false);
      expect(canTransition('Failed', to)).toBe(false);
    }
  });

  it('pending and final split the states', () => {
    expect(DEVICE_COMMAND_STATES.filter(isPending)).toEqual(['Sent', 'Acknowledged']);
    expect(DEVICE_COMMAND_STATES.filter(isFinal)).toEqual(['Completed', 'Failed']);
  });
});
