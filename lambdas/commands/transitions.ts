import type { DeviceCommandState } from '#shared/constants/devices.ts';

/**
 * Which state a device may move a command to from which state (spec point 4). Sent is the server's own (set on
 * POST); the device reports the rest: Sent → Acknowledged; Sent or Acknowledged → Completed or Failed. Completed and
 * Failed are final. Reporting the state a command is already in is not a transition (a repeated report is a 409 too:
 * the device learns its earlier report landed).
 */
export const COMMAND_TRANSITIONS: Readonly<Record<DeviceCommandState, readonly DeviceCommandState[]>> = {
  Sent: ['Acknowledged', 'Completed', 'Failed'],
  Acknowledged: ['Completed', 'Failed'],
  Completed: [],
  Failed: [],
};

/** True when a device may move a command from `from` to `to`. */
export function canTransition(from: DeviceCommandState, to: DeviceCommandState): boolean {
  return COMMAND_TRANSITIONS[from].includes(to);
}

/** Still waiting for the device (in its poll and its pending queue). */
export function isPending(state: DeviceCommandState): boolean {
  return state === 'Sent' || state === 'Acknowledged';
}

/** Final states carry completed_at. */
export function isFinal(state: DeviceCommandState): boolean {
  return state === 'Completed' || state === 'Failed';
}
