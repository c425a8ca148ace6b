import { ulid } from 'ulid';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { ConditionFailedError, type TableItem, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';
import { caseSeatToItem, caseToItem, readCase, SUPPORT_SEAT, toCase, caseRefOfSeat, type CaseItem } from '#core/store/entities/case.ts';
import { readDeviceUser } from '#core/store/entities/device-user.ts';
import { keys } from '#core/store/keys.ts';
import { listPage, type QueryOf } from '#core/store/paging.ts';
import { collectAndHoldBound, type Case, type CaseCreateRequest, type CaseCustodians, type CaseUpdateRequest } from '#shared/contract/entities/cases.ts';
import { CASE_HOLDS_MAX } from '#shared/constants/cases.ts';
import type { caseEndpoints } from '#shared/contract/endpoints/cases.ts';
import { creatorSeat, disposedByRetention, readCaseForCaller, seatOf, seatSees } from './case-access.ts';
import { placeCaseHolds, releaseCaseHolds } from './case-holds.ts';
import { dueMarkerPuts } from '../account-data/public.ts';

export const CASE_CHANGED = 'The case changed meanwhile; read it again and retry';
export const CASE_CLOSED = 'The case is closed: a closed case is kept as it was';

/**
 * The people a request names exist in this tenant, else 404 as for anyone unknown (another tenant's people are not
 * found here): custodian device users within the caller's groups for the act, custodian portal users and team
 * members as the tenant's portal users. One BatchGet per kind.
 */
async function requirePeople(caller: TenantCaller, custodians: CaseCustodians | undefined, team: readonly string[] | undefined) {
  const { deps, tenant } = caller;
  if (custodians !== undefined && custodians.device_users.length > 0) {
    const found = await deps.table.batchGet(custodians.device_users.map((user) => keys.deviceUser.key(tenant, user)));
    const visible = new Set((await caller.groupScope().filter(found.map(readDeviceUser))).map((user) => user.device_user_reference));
    const missing = custodians.device_users.find((user) => !visible.has(user));
    if (missing !== undefined) throw new NotFoundError(`Device user ${missing} not found`);
  }
  const portalUsers = [...new Set([...(custodians?.portal_users ?? []), ...(team ?? [])])];
  if (portalUsers.length > 0) {
    const found = new Set((await deps.table.batchGet(portalUsers.map((user) => keys.portalUser.item(tenant, user)))).map((item) => String(item.user_reference)));
    const missing = portalUsers.find((user) => !found.has(user));
    if (missing !== undefined) throw new NotFoundError(`Portal user ${missing} not found`);
  }
}

/** The seats a case gives: one per team member, and support mode's when the team allows it. */
const seatsOf = (stored: Pick<CaseItem, 'team' | 'support_may_view'>) => [...stored.team, ...(stored.support_may_view ? [SUPPORT_SEAT] : [])];

/** The seat writes that take a case from `before`'s seats to `after`'s: new seats put, lost seats deleted. */
function seatChanges(client: string, caseRef: string, before: readonly string[], after: readonly string[]): TransactOperation[] {
  const added = after.filter((seat) => !before.includes(seat));
  const removed = before.filter((seat) => !after.includes(seat));
  return [
    ...added.map((seat): TransactOperation => ({ kind: 'put', item: caseSeatToItem(client, seat, caseRef) })),
    ...removed.map((seat): TransactOperation => ({ kind: 'delete', key: keys.case.seatKey(client, seat, caseRef) })),
  ];
}

/** The write holds only while the case is as read (its last change's time). */
const asRead = (stored: CaseItem): WriteCondition => ({
  kind: 'expression',
  expression: '#u = :u',
  names: { '#u': 'updated_at' },
  values: { ':u': stored.updated_at },
});

/**
 * `POST cases`: opens a case with the caller on its team, its seats in the same transaction. With collect and hold,
 * each custodian device user is then held (case-holds.ts), and the case records each hold it placed as it goes.
 */
export async function createCase(caller: TenantCaller, request: CaseCreateRequest): Promise<Case> {
  const { deps, tenant, principal } = caller;
  const creator = creatorSeat(caller);
  const team = [creator, ...request.team.filter((member) => member !== creator)];
  await requirePeople(caller, request.custodians, team);
  const now = deps.clock.now();
  const stamp = now.toISOString();
  const stored: CaseItem = {
    client: tenant,
    case_ref: ulid(now.getTime()),
    title: request.title,
    description: request.description,
    custodians: request.custodians,
    counterparty_numbers: request.counterparty_numbers,
    period: request.period,
    payload_types: request.payload_types,
    team,
    support_may_view: request.support_may_view,
    collect_and_hold: request.collect_and_hold,
    state: 'Open',
    holds: [],
    created_at: stamp,
    created_by: actorOf(principal),
    created_by_actor: actorRecordOf(principal),
    updated_at: stamp,
    updated_by: actorOf(principal),
    updated_by_actor: actorRecordOf(principal),
  };
  await deps.table.transactWrite([
    { kind: 'put', item: caseToItem(stored), condition: { kind: 'item-not-exists' } },
    ...seatChanges(tenant, stored.case_ref, [], seatsOf(stored)),
  ]);
  if (!stored.collect_and_hold) return toCase(stored);
  return toCase(await placeCaseHolds(caller, stored, stored.custodians.device_users));
}

/** `GET cases/{case_ref}`: the case if its team names the caller (or allows support mode), else 404. */
export async function getCase(caller: TenantCaller, caseRef: string): Promise<Case> {
  return toCase(await readCaseForCaller(caller, caseRef));
}

/** The case as read for a change: visible to the caller (404) and Open (409). */
async function openCaseForChange(caller: TenantCaller, caseRef: string): Promise<CaseItem> {
  const stored = await readCaseForCaller(caller, caseRef);
  if (stored.state !== 'Open') throw new ConflictError(CASE_CLOSED);
  return stored;
}

/**
 * `PUT cases/{case_ref}`: the fields sent replace the case's, while it is Open; the seats follow the team in the same
 * transaction. A team that would no longer name the caller is allowed (they hand the case over) but must keep one
 * member. Custodian device users added to a collect-and-hold case are held at once; removed ones stay held until the
 * case closes (a hold is released only by closing the case that placed it).
 */
export async function updateCase(caller: TenantCaller, caseRef: string, request: CaseUpdateRequest): Promise<Case> {
  const { deps, tenant, principal } = caller;
  const stored = await openCaseForChange(caller, caseRef);
  await requirePeople(caller, request.custodians, request.team);
  // Custodians added to a collect-and-hold case are held in this request: the case's holds stay within their bound.
  const held = new Set(stored.holds.map((hold) => hold.target));
  const toHold = stored.collect_and_hold ? (request.custodians ?? stored.custodians).device_users.filter((user) => !held.has(user)) : [];
  if (toHold.length > 0 && held.size + toHold.length > CASE_HOLDS_MAX) throw new ValidationError([`body.custodians.device_users: ${collectAndHoldBound}`]);
  const stamp = deps.clock.now().toISOString();
  const fields = Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined));
  const stamps = { updated_at: stamp, updated_by: actorOf(principal), updated_by_actor: actorRecordOf(principal) };
  const changed: CaseItem = { ...stored, ...fields, ...stamps };
  try {
    // Only the fields sent and the stamps: the holds recorded meanwhile by a placing or release are never overwritten.
    await deps.table.transactWrite([
      { kind: 'update', key: keys.case.key(tenant, caseRef), update: { set: { ...fields, ...stamps } }, condition: asRead(stored) },
      ...seatChanges(tenant, caseRef, seatsOf(stored), seatsOf(changed)),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ConflictError(CASE_CHANGED);
    throw error;
  }
  const answer = toHold.length === 0 ? changed : await placeCaseHolds(caller, changed, toHold);
  // The caller may have handed the case over: they no longer see it, but they did change it.
  return toCase(answer);
}

/**
 * `POST cases/{case_ref}/close`: the case is Closed (kept as it is), then each hold it placed is released unless
 * someone else, or another open case, holds the same person (case-holds.ts). Closing a closed case answers it as is,
 * after finishing any release a failed close left undone.
 */
export async function closeCase(caller: TenantCaller, caseRef: string): Promise<Case> {
  const { deps, principal } = caller;
  const stored = await readCaseForCaller(caller, caseRef);
  let closed = stored;
  if (stored.state === 'Open') {
    const stamp = deps.clock.now().toISOString();
    const stamps = { updated_at: stamp, updated_by: actorOf(principal), updated_by_actor: actorRecordOf(principal) };
    const closing = { state: 'Closed' as const, closed_at: stamp, closed_by: actorOf(principal), closed_by_actor: actorRecordOf(principal), ...stamps };
    closed = { ...stored, ...closing };
    try {
      // The closing is when the case's retention period starts (CaseData): its due marker is written with it.
      await deps.table.transactWrite([
        { kind: 'update', key: keys.case.key(caller.tenant, caseRef), update: { set: closing }, condition: asRead(stored) },
        ...dueMarkerPuts(caller.tenant, caseToItem(closed)),
      ]);
    } catch (error) {
      if (error instanceof ConditionFailedError) throw new ConflictError(CASE_CHANGED);
      throw error;
    }
  }
  return toCase(await releaseCaseHolds(caller, closed));
}

/**
 * `GET cases`: the cases the caller's seat gives sight of, newest first, read by key from the seat items and checked
 * against their team again (a seat never shows a case that no longer names its holder). Support mode reads the support
 * seat; a caller without a seat (a client app) has no cases. `result_type=total` counts the same cases.
 */
export async function listCases(caller: TenantCaller, query: QueryOf<typeof caseEndpoints, 'client.cases.list'>) {
  const { deps, tenant } = caller;
  const seat = seatOf(caller);
  if (seat === undefined) return query.result_type === 'total' ? { count: 0 } : { count: 0, data: [] };
  const cases = new Map<string, CaseItem>();
  const keep = async (items: readonly TableItem[]) => {
    const found = (await deps.table.batchGet(items.map((item) => keys.case.key(tenant, caseRefOfSeat(item))))).filter((item) => !disposedByRetention(item)).map(readCase);
    for (const stored of found) {
      if (seatSees(seat, stored) && (query.state === undefined || stored.state === query.state)) cases.set(stored.case_ref, stored);
    }
    return items.filter((item) => cases.has(caseRefOfSeat(item)));
  };
  return listPage(deps, {
    client: tenant,
    query: { ...keys.case.seats(tenant, seat), descending: true },
    filters: { state: query.state },
    page: query,
    keep,
    toData: (item) => {
      const stored = cases.get(caseRefOfSeat(item));
      return stored === undefined ? undefined : toCase(stored);
    },
  });
}
