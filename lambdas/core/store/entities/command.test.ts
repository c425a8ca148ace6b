import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { commandToItem, readCommand, toCommand, type CommandItem } from './command.ts';

const command: CommandItem & { sent_at: string } = {
  client: 'acme',
  command: 'sync_data',
  device_reference: 'dev-1',
  command_reference: '01J0000000000000000000000A',
  group: 'north',
  state: 'Completed',
  raised_by: 'u-1',
  sent_at: '2026-01-02T03:04:05.000Z',
  completed_at: '2026-01-02T03:05:00.000Z',
  report_message: 'done',
  updated_at: '2026-01-02T03:05:00.000Z',
};

describe('command item', () => {
  it('round-trips on the lists and the pending queue; tenant, report message and last change stay off the wire', () => {
    const item = commandToItem('acme', command);
    expect(item).toMatchObject({
      ...keys.command.item('acme', 'dev-1', command.command_reference, command.sent_at),
      ...keys.command.pendingKeys('acme', 'dev-1', command.command_reference, command.sent_at),
    });
    expect(readCommand(item)).toEqual(command);
    const { client: _c, report_message: _m, updated_at: _u, ...answered } = command;
    expect(toCommand(readCommand(item))).toEqual(answered);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...commandToItem('acme', command), state: 'Lost' };
    expect(() => readCommand(item)).toThrow(InternalError);
    expect(() => readCommand(item)).toThrow(/DeviceCommand item .* state: /);
  });
});
