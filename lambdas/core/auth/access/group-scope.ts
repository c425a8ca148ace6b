import type { TableStore } from '../../ports/table-store.ts';
import { readGroup, type GroupItem } from '../../store/entities/group.ts';
import { readItemGroup } from '../../store/entities/item-group.ts';
import { ForbiddenError } from '../../errors.ts';
import { keys } from '../../store/keys.ts';
import { visibleGroupFilter, type GroupFacts } from '#shared/permissions/evaluate.ts';
import { actionInWords } from '#shared/contract/action-wording.ts';
import type { AccessContext } from './access-context.ts';

/**
 * Group scope (DESIGN.md §8: "one mechanism narrows every list, count, single object and write to the groups a
 * role allows"). The pipeline checked the endpoint's action tenant-wide; a role whose permission carries group
 * conditions is allowed the action only on some groups, and this is where that narrowing happens, for every
 * endpoint that touches a device, a device user or their data (devices, device users, history, telemetry,
 * commands, logs, GPS, device activities, metrics, the dashboard, payloads and comments):
 *
 * - lists and totals keep the items whose `group` the scope allows (`filter`, a batch filter for
 *   core/store/paging.ts: `inScope`); records that take their group from their device (logs, telemetry, GPS, device
 *   activities) are judged by their device's group now instead (./device-group-scope.ts: `inDeviceScope`);
 * - a single object the scope refuses is answered exactly as a missing one (`visible`: the caller's NotFoundError,
 *   same status, same body), so a refusal never tells that the object exists;
 * - a write asks `allows` for the target's current group and, for a move, `require` for the new one (a group the
 *   caller named in the body: saying it is refused reveals nothing).
 *
 * Group facts (name and tags, which conditions match) are read once per group per request, in one BatchGet per
 * batch of items. An item without a group is judged as a group with an empty name and no tags: a condition that
 * names groups does not include it, an excluding condition does not exclude it. A group that no longer exists is
 * judged by its name alone (its tags are gone with it).
 */
export interface GroupScope {
  /** The endpoint's action the scope is evaluated for. */
  readonly action: string;
  /** True when no condition narrows the action: every group is in scope and lists skip the group look-ups. */
  readonly unrestricted: boolean;
  /** Is the group (an item's `group` attribute, possibly absent) in scope? */
  allows(group: unknown): Promise<boolean>;
  /** The items whose group is in scope, in their order. */
  filter<T extends GroupedItem>(items: readonly T[]): Promise<T[]>;
  /** The item when it exists and its group is in scope; else `notFound()` is thrown, as for a missing item. */
  visible<T extends GroupedItem>(item: T | undefined, notFound: () => Error): Promise<T>;
  /** Throws a 403 naming the group when it is not in scope (for a group the caller named: the target of a move). */
  require(group: string): Promise<void>;
  /** The group names among `groups` that are in scope (dashboard counters summed over the visible groups). */
  visibleOf(groups: readonly string[]): Promise<Set<string>>;
}

/** Anything with an optional `group` attribute (table items, contract entities). */
export interface GroupedItem {
  group?: unknown;
  // Any item: without this, a TableItem would share no declared property with this all-optional shape.
  [attribute: string]: unknown;
}

const NO_GROUP = '';

/** The `group` attribute as a group name ('' when absent). */
export function groupNameOf(item: GroupedItem | undefined): string {
  return (item === undefined ? undefined : readItemGroup(item).group) ?? NO_GROUP;
}

function factsOf(reference: string, group: GroupItem | undefined): GroupFacts {
  return { name: reference, tags: group?.tags ?? [] };
}

/** BatchGet takes at most 100 keys per call. */
const GROUPS_PER_BATCH = 100;

/**
 * The scope of `action` (the endpoint's action, e.g. `devices:List`) in `client` for the caller's access. Without
 * an access context (never on the admin and client surfaces, whose authentication always resolves one) nothing is
 * in scope: fail closed.
 */
export function groupScope(
  dependencies: { table: Pick<TableStore, 'batchGet'> },
  client: string,
  access: AccessContext | undefined,
  action: string,
): GroupScope {
  if (access === undefined) throw new ForbiddenError('No permissions resolved for this call');
  const filter = visibleGroupFilter(access.roles, action, access.ip);
  const verdicts = new Map<string, boolean>();

  /** Loads the facts of the groups not judged yet (BatchGets of at most 100) and records a verdict for each. */
  const judge = async (references: readonly string[]): Promise<void> => {
    const missing = [...new Set(references)].filter((reference) => !verdicts.has(reference));
    const named = missing.filter((reference) => reference !== NO_GROUP);
    const byReference = new Map<string, GroupItem>();
    for (let start = 0; start < named.length; start += GROUPS_PER_BATCH) {
      const batch = named.slice(start, start + GROUPS_PER_BATCH);
      const items = await dependencies.table.batchGet(batch.map((reference) => {
        const { pk, sk } = keys.group.item(client, reference);
        return { pk, sk };
      }));
      for (const group of items.map(readGroup)) byReference.set(group.group_reference, group);
    }
    for (const reference of missing) verdicts.set(reference, filter.allows(factsOf(reference, byReference.get(reference))));
  };

  const allowsName = async (name: string): Promise<boolean> => {
    if (filter.unrestricted) return true;
    await judge([name]);
    return verdicts.get(name) === true;
  };

  return {
    action,
    unrestricted: filter.unrestricted,
    allows: (group) => allowsName(typeof group === 'string' ? group : NO_GROUP),
    async filter(items) {
      if (filter.unrestricted) return [...items];
      await judge(items.map(groupNameOf));
      return items.filter((item) => verdicts.get(groupNameOf(item)) === true);
    },
    async visible(item, notFound) {
      if (item === undefined || !(await allowsName(groupNameOf(item)))) throw notFound();
      return item;
    },
    async require(group) {
      if (!(await allowsName(group))) throw new ForbiddenError(`Access denied: your roles do not allow ${actionInWords(action)} on group "${group}"`);
    },
    async visibleOf(groups) {
      if (filter.unrestricted) return new Set(groups);
      await judge(groups);
      return new Set(groups.filter((group) => verdicts.get(group) === true));
    },
  };
}
