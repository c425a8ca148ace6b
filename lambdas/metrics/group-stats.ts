import { SERVICES, type Service } from '#shared/constants/devices.ts';
import type { GroupStats } from '#shared/contract/entities/groups.ts';
import type { z } from 'zod';
import { ConflictError, NotFoundError } from '../core/errors.ts';
import { ConditionFailedError, type TableStore, type TransactOperation } from '../core/ports/table-store.ts';
import { TABLE_KEYS } from '../core/store/table-definition.ts';
import { keys } from '../core/store/keys.ts';
import { GROUP_COUNTERS, readGroupStats, SERVICE_COUNTERS, statsAttribute, type ServiceCounter } from '../core/store/entities/group.ts';

// The counters' attribute names and their reading belong to the group item (core/store/entities/group.ts).
export { readGroupStats, statsAttribute };

/**
 * Group stats (spec point 3: device users, expected and actual devices, and per service used licences, expected
 * devices, active devices and active users) live on the group item as FLAT numeric attributes.
 *
 * Why flat: DynamoDB's ADD creates a missing top-level number but refuses a nested path whose parent map is missing,
 * and the TableStore port names whole attributes. Flat counters let devices and device users change them
 * with one atomic ADD, never by reading and rewriting, and a group PUT never touches them (no lost update).
 */

/** A change to a group's stats: positive or negative whole numbers; absent counters stay as they are. */
export interface GroupStatsDelta {
  device_users?: number;
  expected_devices?: number;
  actual_devices?: number;
  services?: Partial<Record<Service, Partial<Record<ServiceCounter, number>>>>;
}

/** Every counter attribute the delta changes, with its increment (zeros left out). */
export function statsIncrements(delta: GroupStatsDelta): Record<string, number> {
  const add: Record<string, number> = {};
  const put = (attribute: string, value: number | undefined) => {
    if (value === undefined || value === 0) return;
    if (!Number.isSafeInteger(value)) throw new Error(`Group stats change ${attribute} must be a whole number`);
    add[attribute] = value;
  };
  for (const counter of GROUP_COUNTERS) put(statsAttribute(counter), delta[counter]);
  for (const [service, counters] of Object.entries(delta.services ?? {})) {
    if (!(SERVICES as readonly string[]).includes(service)) throw new Error(`Unknown service ${service}`);
    for (const counter of SERVICE_COUNTERS) put(statsAttribute(counter, service as Service), counters?.[counter]);
  }
  return add;
}

/**
 * The write condition: the group exists (an ADD on a missing item would create a stray item with no entity), and no
 * decremented counter goes below zero. Placeholders are `#g…`/`:g…` so they never meet the adapter's `#f…`.
 */
function statsCondition(add: Record<string, number>) {
  const names: Record<string, string> = { '#gpk': TABLE_KEYS.partitionKey };
  const values: Record<string, unknown> = {};
  const clauses = ['attribute_exists(#gpk)'];
  Object.entries(add)
    .filter(([, value]) => value < 0)
    .forEach(([attribute, value], index) => {
      names[`#g${index}`] = attribute;
      values[`:g${index}`] = -value;
      clauses.push(`#g${index} >= :g${index}`);
    });
  return {
    kind: 'expression' as const,
    expression: clauses.join(' AND '),
    names,
    ...(Object.keys(values).length > 0 ? { values } : {}),
  };
}

/**
 * The same change as a transaction operation, for callers that must change stats together with their own write
 * (a device user joins a group: the user item and the group's counters in one transaction).
 * Undefined when the delta changes nothing.
 */
export function groupStatsOperation(client: string, group: string, delta: GroupStatsDelta): TransactOperation | undefined {
  const add = statsIncrements(delta);
  if (Object.keys(add).length === 0) return undefined;
  const { pk, sk } = keys.group.item(client, group);
  return { kind: 'update', key: { pk, sk }, update: { add }, condition: statsCondition(add) };
}

/**
 * Atomically adds `delta` to a group's stats (one UpdateItem with ADD). Throws NotFoundError when the group does not
 * exist, ConflictError when a counter would go below zero. Answers the stats after the change.
 */
export async function adjustGroupStats(
  dependencies: { table: TableStore },
  client: string,
  group: string,
  delta: GroupStatsDelta,
): Promise<z.infer<typeof GroupStats>> {
  const operation = groupStatsOperation(client, group, delta);
  const key = keys.group.item(client, group);
  if (operation === undefined || operation.kind !== 'update') {
    const item = await dependencies.table.get({ pk: key.pk, sk: key.sk });
    if (item === undefined) throw new NotFoundError('Unknown group');
    return readGroupStats(item);
  }
  try {
    const item = await dependencies.table.update(operation.key, operation.update, { condition: operation.condition });
    return readGroupStats(item ?? {});
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    const item = await dependencies.table.get({ pk: key.pk, sk: key.sk }, { consistent: true });
    if (item === undefined) throw new NotFoundError('Unknown group');
    throw new ConflictError('Group stats cannot go below zero');
  }
}
