import type { TableStore } from '../../ports/table-store.ts';
import type { PayloadType } from '#shared/constants/payloads.ts';
import type { AccessContext } from './access-context.ts';
import { groupScope } from './group-scope.ts';

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
 * ask `check`. The group part is the general group scope (`group-scope.ts`); the payload-type part is the roles'
 * payload types. Payload data names its refusal (PayloadDataStatus), so `check` answers why rather than throwing.
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
 * The restriction for `action` (the endpoint's action, e.g. `payloads:List`) in `client`. Without an access
 * context (never on the client surface, whose auth always resolves one) everything is refused: fail closed.
 */
export function payloadAccess(
  dependencies: { table: Pick<TableStore, 'batchGet'> },
  client: string,
  access: AccessContext | undefined,
  action: string,
): PayloadAccess {
  const scope = groupScope(dependencies, client, access, action);
  const types = new Set<string>(access?.payloadTypes ?? []);
  const typeAllowed = (type: unknown) => typeof type === 'string' && types.has(type);
  return {
    types: access?.payloadTypes ?? [],
    allGroups: scope.unrestricted,
    typeAllowed,
    async check(payload) {
      if (!typeAllowed(payload.payload_type)) return 'TypeNotAuthorised';
      return (await scope.allows(payload.group)) ? undefined : 'GroupNotAuthorised';
    },
    async filter(payloads) {
      return scope.filter(payloads.filter((payload) => typeAllowed(payload.payload_type)));
    },
  };
}
