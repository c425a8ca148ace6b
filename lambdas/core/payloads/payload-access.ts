import type { AccessContext } from '#core/access/access-context.ts';
import { ForbiddenError } from '#core/errors.ts';
import type { TableItem, TableStore } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import type { PayloadType } from '#shared/constants/payloads.ts';
import { visibleGroupFilter, type GroupFacts } from '#shared/permissions/evaluate.ts';

/** Why a caller may not see one payload (the PayloadDataStatus values of a refusal). */
export type PayloadRefusal = 'GroupNotAuthorised' | 'TypeNotAuthorised';

/** The two attributes of a payload item the restrictions read. */
export interface PayloadFacts {
  payload_type?: unknown;
  group?: unknown;
  // Any item: without this, a TableItem would share no declared property with this all-optional shape.
  [attribute: string]: unknown;
}

/**
 * The group and payload-type restriction of one request (spec: "gated by action permission and by group and
 * payload-type restriction"), for EVERY payload endpoint: lists and totals filter with `filter`, single payloads
 * ask `check`. The pipeline already checked the action tenant-wide; this narrows it to the payload's group (role
 * conditions, evaluated against the group's name and tags) and to the role's payload types.
 */
export interface PayloadAccess {
  /** Payload types the caller may see. */
  readonly types: readonly PayloadType[];
  /** Does the caller see every group (no condition narrows the action)? Lists then skip the group lookups. */
  readonly allGroups: boolean;
  /** Is this payload type open to the caller? */
  typeAllowed(type: unknown): boolean;
  /** Undefined when the caller may see the payload, else why not (type is checked first). */
  check(payload: PayloadFacts): Promise<PayloadRefusal | undefined>;
  /** The payloads the caller may see, in their order (group facts read once per group, in one batch). */
  filter<T extends PayloadFacts>(payloads: readonly T[]): Promise<T[]>;
}

/**
 * A payload without a group is judged as a group with an empty name and no tags: a condition naming groups does
 * not include it, an excluding condition does not exclude it. A group that no longer exists is judged by its name
 * alone (its tags are gone with it).
 */
const NO_GROUP = '';

function groupOf(payload: PayloadFacts): string {
  return typeof payload.group === 'string' ? payload.group : NO_GROUP;
}

function factsOf(reference: string, item: TableItem | undefined): GroupFacts {
  const tags = Array.isArray(item?.tags)
    ? (item.tags as unknown[]).flatMap((tag) => {
        if (typeof tag !== 'object' || tag === null) return [];
        const { tag_key: key, tag_value: value } = tag as Record<string, unknown>;
        return typeof key === 'string' ? [{ tag_key: key, tag_value: typeof value === 'string' ? value : null }] : [];
      })
    : [];
  return { name: reference, tags };
}

/**
 * The restriction for `action` (the endpoint's action, e.g. `payloads:List`) in `client`. Without an access
 * context (never on the client surface, whose auth always resolves one) everything is refused: fail closed.
 */
export function payloadAccess(
  dependencies: { table: Pick<TableStore, 'batchGet'> },
  client: string,
  access: AccessContext | undefined,
  action: string,
): PayloadAccess {
  if (access === undefined) throw new ForbiddenError('No permissions resolved for this call');
  const types = new Set<string>(access.payloadTypes);
  const groups = visibleGroupFilter(access.roles, action, access.ip);
  const verdicts = new Map<string, boolean>();

  /** Loads the facts of the groups not judged yet (one batchGet) and records a verdict for each. */
  const judge = async (references: readonly string[]): Promise<void> => {
    const missing = [...new Set(references)].filter((reference) => !verdicts.has(reference));
    if (missing.length === 0) return;
    const named = missing.filter((reference) => reference !== NO_GROUP);
    const items = named.length === 0 ? [] : await dependencies.table.batchGet(named.map((reference) => {
          const { pk, sk } = keys.group.item(client, reference);
          return { pk, sk };
        }));
    const byReference = new Map(items.map((item) => [String(item.group_reference ?? ''), item]));
    for (const reference of missing) {
      verdicts.set(reference, groups.allows(factsOf(reference, byReference.get(reference))));
    }
  };

  const typeAllowed = (type: unknown) => typeof type === 'string' && types.has(type);
  const groupAllowed = (payload: PayloadFacts) => groups.unrestricted || verdicts.get(groupOf(payload)) === true;

  return {
    types: access.payloadTypes,
    allGroups: groups.unrestricted,
    typeAllowed,
    async check(payload) {
      if (!typeAllowed(payload.payload_type)) return 'TypeNotAuthorised';
      if (!groups.unrestricted) await judge([groupOf(payload)]);
      return groupAllowed(payload) ? undefined : 'GroupNotAuthorised';
    },
    async filter(payloads) {
      const typed = payloads.filter((payload) => typeAllowed(payload.payload_type));
      if (groups.unrestricted) return typed;
      await judge(typed.map(groupOf));
      return typed.filter(groupAllowed);
    },
  };
}
