import * as z from 'zod';
import { DeviceCommand } from '#shared/contract/entities/devices.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * A device command (`keys.command`), in its device's partition: the contract's `DeviceCommand` and what stays off
 * the wire (the tenant, the device's report message, the last change).
 */
export const CommandItem = DeviceCommand.extend({
  client: z.string().optional(),
  report_message: z.string().optional(),
  updated_at: z.string().optional(),
});
export type CommandItem = z.infer<typeof CommandItem>;

export function readCommand(item: TableItem): CommandItem {
  return readItem('DeviceCommand', CommandItem, item);
}

/**
 * A new command's item: its keys on the tenant's and the device's lists by `sent_at`, and on the device's pending
 * queue (the poll's gsi3), which it leaves when it reaches a final state.
 */
export function commandToItem(client: string, command: CommandItem & { sent_at: string }): TableItem {
  const { device_reference: device, command_reference: reference, sent_at: sentAt } = command;
  return { ...keys.command.item(client, device, reference, sentAt), ...keys.command.pendingKeys(client, device, reference, sentAt), ...command };
}

/** The command as the API answers it (tenant, report message and last change stay off the wire). */
export function toCommand(stored: CommandItem): DeviceCommand {
  const { client: _client, report_message: _message, updated_at: _updated, ...command } = stored;
  return command;
}
