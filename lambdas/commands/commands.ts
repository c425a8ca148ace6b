import { monotonicFactory } from 'ulid';
import type { DeviceCommandState, DeviceReportableCommandState } from '#shared/constants/devices.ts';
import type { DeviceCommand, DeviceCommandRequest } from '#shared/contract/entities/devices.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { actorRecordOf } from '../core/auth/actor.ts';
import type { DevicePrincipal } from '../core/auth/principal.ts';
import type { TenantCaller } from '../core/http/caller.ts';
import { ConflictError, NotFoundError } from '../core/errors.ts';
import { ConditionFailedError, type TableItem, type WriteCondition } from '../core/ports/table-store.ts';
import type { Page } from '../core/store/cursor.ts';
import { inScope, listPage, type QueryOf } from '../core/store/paging.ts';
import type { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { commandToItem, readCommand, toCommand, type CommandItem } from '../core/store/entities/command.ts';
import { readDevice, type DeviceItem } from '../core/store/entities/device.ts';
import { keys } from '../core/store/keys.ts';
import { timeRange } from '../core/store/time-range.ts';
import { canTransition, isFinal } from './transitions.ts';

/**
 * Device commands (spec points 4 and 9), used by both sides: portal users send and list them (the `devices` group),
 * the device polls and reports them (the `device-api` group). Keys: `keys.command` (docs/data-model.md).
 */

/** Monotonic within a process: two commands sent in the same millisecond still list in the order they were sent. */
const nextReference = monotonicFactory();

/** The poll answers at most this many pending commands, oldest first; the device reports them and polls again. */
export const POLL_LIMIT = 100;

/** A stored command as the contract shows it. */
function commandOfItem(item: TableItem): DeviceCommand {
  return toCommand(readCommand(item));
}

/** The device exists and is not deactivated: a condition on the device item, checked in the command's transaction. */
const DEVICE_ACTIVE: WriteCondition = {
  kind: 'expression',
  expression: 'attribute_exists(#cmdpk) AND (attribute_not_exists(#cmdoff) OR #cmdoff = :cmdfalse)',
  names: { '#cmdpk': 'pk', '#cmdoff': 'is_deactivated' },
  values: { ':cmdfalse': false },
};

const deviceNotFound = () => new NotFoundError('Device not found');

/** The device, if it exists and is in the caller's group scope (else the 404 of a missing device), and is active. */
async function activeDevice(caller: TenantCaller, deviceReference: string): Promise<DeviceItem> {
  const item = await caller.deps.table.get(keys.device.key(caller.tenant, deviceReference), { consistent: true });
  const device = await caller.groupScope().visible(item === undefined ? undefined : readDevice(item), deviceNotFound);
  if (device.is_deactivated) throw new ConflictError('Device is deactivated: commands cannot be sent to it');
  return device;
}

/**
 * POST: a new command in state Sent, with a ULID reference, raised_by and sent_at. Written in one transaction with a
 * check that the device is still active, so a deactivation racing the send cannot leave a command for a dead device.
 * `params` were validated by the contract (flat string, number or boolean values); the contract sets no per-command rule.
 */
export async function sendCommand(caller: TenantCaller, deviceReference: string, request: DeviceCommandRequest): Promise<DeviceCommand> {
  const { deps: dependencies, tenant: client } = caller;
  const raisedBy = actorRecordOf(caller.principal);
  const device = await activeDevice(caller, deviceReference);
  const now = dependencies.clock.now();
  const sentAt = now.toISOString();
  const reference = nextReference(now.getTime());
  const command: CommandItem & { sent_at: string } = {
    client,
    command: request.command,
    ...(request.params === undefined ? {} : { params: request.params }),
    device_reference: deviceReference,
    command_reference: reference,
    ...(device.group === undefined ? {} : { group: device.group }),
    state: 'Sent' satisfies DeviceCommandState,
    raised_by: raisedBy.reference,
    raised_by_actor: raisedBy,
    sent_at: sentAt,
    updated_at: sentAt,
  };
  try {
    await dependencies.table.transactWrite([
      { kind: 'check', key: keys.device.key(client, deviceReference), condition: DEVICE_ACTIVE },
      { kind: 'put', item: commandToItem(client, command), condition: { kind: 'item-not-exists' } },
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    await activeDevice(caller, deviceReference); // 404 or 409 as it is now
    throw new ConflictError('Device changed meanwhile, try again');
  }
  return toCommand(command);
}

export type CommandListQuery = QueryOf<typeof deviceEndpoints, 'admin.commands.list'>;

/**
 * Commands newest first: one device's (gsi2) when `device_reference` is given, else the tenant's (gsi1). The time
 * range is a key condition on sent_at; state, command and group filter the items read (a page may then be short and
 * still carry a cursor, as with a DynamoDB filter expression). The cursor is bound to the tenant, list and filters.
 */
export async function listCommands(caller: TenantCaller, query: CommandListQuery): Promise<Page<DeviceCommand> | { count: number }> {
  const { deps: dependencies, tenant: client } = caller;
  const list = query.device_reference === undefined ? keys.command.list(client) : keys.command.listByDevice(client, query.device_reference);
  const range = timeRange(query.from, query.to);
  const sort = range === undefined ? {} : { sort: { between: range } };
  const keep = (item: TableItem) => {
    const command = readCommand(item);
    return (
      (query.state === undefined || command.state === query.state) &&
      (query.command === undefined || command.command === query.command) &&
      (query.group === undefined || command.group === query.group)
    );
  };

  return listPage(dependencies, {
    client,
    query: { ...list, ...sort, descending: true },
    filters: { from: query.from, to: query.to, state: query.state, command: query.command, group: query.group },
    page: query,
    keep: inScope(caller.groupScope(), keep),
    toData: commandOfItem,
  });
}

/** `devices/{device_reference}/commands`: that device's commands (404 for an unknown device). */
export async function listDeviceCommands(
  caller: TenantCaller,
  deviceReference: string,
  query: QueryOf<typeof deviceEndpoints, 'admin.devices.commands.list'>,
): Promise<Page<DeviceCommand> | { count: number }> {
  const device = await caller.deps.table.get(keys.device.key(caller.tenant, deviceReference));
  await caller.groupScope().visible(device === undefined ? undefined : readDevice(device), deviceNotFound);
  return listCommands(caller, { ...query, device_reference: deviceReference });
}

/**
 * The device's poll: its own Sent and Acknowledged commands, oldest first (the pending queue, gsi3, holds nothing
 * else). Tenant and device come from the device token only.
 */
export async function pollCommands(dependencies: Pick<Dependencies, 'table'>, { client, deviceReference }: DevicePrincipal): Promise<{ data: DeviceCommand[] }> {
  const page = await dependencies.table.query({ ...keys.command.pending(client, deviceReference), limit: POLL_LIMIT });
  // The queue is an index (eventually consistent): a command reported a moment ago may still show; drop it.
  const data = page.items
    .map(readCommand)
    .filter((command) => command.device_reference === deviceReference && (command.state === 'Sent' || command.state === 'Acknowledged'))
    .map(toCommand);
  return { data };
}

/**
 * The device's report. Only Sent → Acknowledged and Sent|Acknowledged → Completed|Failed (transitions.ts); anything
 * else is a 409 naming the state. The update is conditional on the state read, so two racing reports cannot both
 * land. Completed and Failed set completed_at and leave the pending queue. The key is the calling device's own
 * partition: another device's command is simply not there (404), whatever its reference.
 */
export async function reportCommand(
  dependencies: Pick<Dependencies, 'table' | 'clock'>,
  { client, deviceReference }: DevicePrincipal,
  commandReference: string,
  report: { state: DeviceReportableCommandState; message?: string | undefined },
): Promise<DeviceCommand> {
  const key = keys.command.key(client, deviceReference, commandReference);
  const stored = await dependencies.table.get(key, { consistent: true });
  const before = stored === undefined ? undefined : readCommand(stored);
  if (before === undefined || before.device_reference !== deviceReference) throw new NotFoundError('Command not found');
  const from = before.state;
  if (!canTransition(from, report.state)) throw new ConflictError(`Command is ${from}: it cannot become ${report.state}`);
  const now = dependencies.clock.now().toISOString();
  const set: Partial<CommandItem> = {
    state: report.state,
    updated_at: now,
    ...(report.message === undefined ? {} : { report_message: report.message }),
    ...(isFinal(report.state) ? { completed_at: now } : {}),
  };
  let after: TableItem | undefined;
  try {
    after = await dependencies.table.update(
      key,
      { set, ...(isFinal(report.state) ? { remove: ['gsi3pk', 'gsi3sk'] } : {}) },
      { condition: { kind: 'expression', expression: '#cmdstate = :cmdfrom', names: { '#cmdstate': 'state' }, values: { ':cmdfrom': from } } },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    const current = await dependencies.table.get(key, { consistent: true });
    const state = current === undefined ? 'gone' : readCommand(current).state;
    throw new ConflictError(`Command is ${state}: it cannot become ${report.state}`);
  }
  return toCommand(after === undefined ? { ...before, ...set } : readCommand(after));
}
