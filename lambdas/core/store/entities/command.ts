import * as z from 'zod';
import { DeviceCommand } from '#shared/contract/entities/devices.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { devicePartition } from './device.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Named indexes of a command: the tenant's by sent_at, one device's by sent_at, the device's pending queue. */
export const COMMAND_INDEXES = { byTenantTime: 'gsi1', byDevice: 'gsi2', pending: 'gsi3' } as const;

const byDevicePartition = (client: string, deviceReference: string) => `${devicePartition(client, deviceReference)}#COMMANDS`;
const pendingPartition = (client: string, deviceReference: string) => `${byDevicePartition(client, deviceReference)}#PENDING`;

/**
 * Device commands (lambdas/commands). A command lives in its device's partition (`COMMAND#<ulid>`). byTenantTime
 * lists the tenant's commands by sent_at, byDevice one device's by sent_at (time ranges are key conditions on both);
 * pending is the device's queue the poll reads, present only while the command is Sent or Acknowledged.
 */
export const commandKeys = {
  prefix: 'COMMAND#',
  key: (client: string, deviceReference: string, commandReference: string): ItemKey => ({
    pk: devicePartition(client, deviceReference),
    sk: `COMMAND#${part(commandReference)}`,
  }),
  item: (client: string, deviceReference: string, commandReference: string, sentAt: Date | string): ItemKeys => ({
    ...commandKeys.key(client, deviceReference, commandReference),
    entity: ENTITY.deviceCommand,
    ...onIndex[COMMAND_INDEXES.byTenantTime](`${tenantPrefix(client)}COMMANDS`, timeSort(sentAt, commandReference)),
    ...onIndex[COMMAND_INDEXES.byDevice](byDevicePartition(client, deviceReference), timeSort(sentAt, commandReference)),
  }),
  /** The pending index's attributes (removed when it reaches Completed or Failed). */
  pendingKeys: (client: string, deviceReference: string, commandReference: string, sentAt: Date | string) =>
    onIndex[COMMAND_INDEXES.pending](pendingPartition(client, deviceReference), timeSort(sentAt, commandReference)),
  list: (client: string): ListKey => list(COMMAND_INDEXES.byTenantTime, `${tenantPrefix(client)}COMMANDS`),
  listByDevice: (client: string, deviceReference: string): ListKey => list(COMMAND_INDEXES.byDevice, byDevicePartition(client, deviceReference)),
  pending: (client: string, deviceReference: string): ListKey => list(COMMAND_INDEXES.pending, pendingPartition(client, deviceReference)),
};

/**
 * A device command (`keys.command`), in its device's partition: the contract's `DeviceCommand` and what stays off
 * the wire (the tenant, the device's report message, the last change).
 */
export const commandItemSchema = /* @__PURE__ */ onFirstUse(() => DeviceCommand.extend({
  client: z.string().optional(),
  report_message: z.string().optional(),
  updated_at: z.string().optional(),
}));
export type CommandItem = z.infer<ReturnType<typeof commandItemSchema>>;

export function readCommand(item: TableItem): CommandItem {
  return readItem('DeviceCommand', commandItemSchema(), item);
}

/**
 * A new command's item: its keys on the tenant's and the device's lists by `sent_at`, and on the device's pending
 * queue (the poll's gsi3), which it leaves when it reaches a final state.
 */
export function commandToItem(client: string, command: CommandItem & { sent_at: string }): TableItem {
  const { device_reference: device, command_reference: reference, sent_at: sentAt } = command;
  return { ...commandKeys.item(client, device, reference, sentAt), ...commandKeys.pendingKeys(client, device, reference, sentAt), ...command };
}

/** The command as the API answers it (tenant, report message and last change stay off the wire). */
export function toCommand(stored: CommandItem): DeviceCommand {
  const { client: _client, report_message: _message, updated_at: _updated, ...command } = stored;
  return command;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const commandModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.deviceCommand,
  title: 'Device command',
  module: 'command.ts',
  indexes: COMMAND_INDEXES,
  items: [
    {
      when: 'pending while Sent or Acknowledged',
      example: () => ({
        ...commandKeys.item(EXAMPLE_CLIENT, '<device_reference>', '<command_reference>', '<sent_at>'),
        ...commandKeys.pendingKeys(EXAMPLE_CLIENT, '<device_reference>', '<command_reference>', '<sent_at>'),
      }),
    },
  ],
  accessPatterns: [
    { name: 'The tenant\'s commands, by sent_at', serves: '`GET commands`', builders: ['keys.command.list'], example: () => commandKeys.list(EXAMPLE_CLIENT) },
    { name: 'One device\'s commands, by sent_at', serves: '`GET devices/{device_reference}/commands`', builders: ['keys.command.listByDevice'], example: () => commandKeys.listByDevice(EXAMPLE_CLIENT, '<device_reference>') },
    { name: 'A device\'s pending commands', serves: 'the device\'s poll', builders: ['keys.command.pending'], example: () => commandKeys.pending(EXAMPLE_CLIENT, '<device_reference>') },
  ],
}));
