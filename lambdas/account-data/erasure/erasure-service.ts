import type * as z from 'zod';
import { ulid } from 'ulid';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { ConditionFailedError, type TableItem, type WriteCondition } from '#core/ports/table-store.ts';
import { readDeviceUser } from '#core/store/entities/device-user.ts';
import { erasureRequestKeys, erasureRequestToItem, readErasureRequest, toErasureRequest, type ErasureRequestItem } from '#core/store/entities/erasure-request.ts';
import { keys } from '#core/store/keys.ts';
import { listPage, type QueryOf } from '#core/store/paging.ts';
import type { CreateErasureRequest, ErasureRequest, ReviewErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import type { erasureRequestEndpoints } from '#shared/contract/endpoints/erasure-requests.ts';
import { leaseUntil, startMarkerOperation, type TrackedJob } from '../../jobs/public.ts';
import { ERASURE_DECISION_JOB, ERASURE_RUN_JOB } from './erasure-jobs.ts';
import { dueMarkerPuts } from '../retention/due-index.ts';

/**
 * Erasure requests' endpoints (docs/erasure.md). A request is about a device user: a caller sees only requests about
 * device users in their groups, and one outside them is answered as missing (404), as a legal hold on one is.
 */

const notFound = (reference: string) => new NotFoundError(`Erasure request ${reference} not found`);
const deviceUserNotFound = (reference: string) => new NotFoundError(`Device user ${reference} not found`);

/** A date-time as stored: ISO 8601 UTC; one without a zone is UTC. */
const isoOf = (value: string) => new Date(/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value.replace(' ', 'T') : `${value.replace(' ', 'T')}Z`).toISOString();

/**
 * The device user in this tenant and in the caller's groups, else 404 (another tenant's person is not found here);
 * answers their name as their record gives it, for the request to keep.
 */
async function requireDeviceUser(caller: TenantCaller, reference: string): Promise<{ name: string | undefined }> {
  const item = await caller.deps.table.get(keys.deviceUser.key(caller.tenant, reference), { consistent: true });
  if (item === undefined) throw deviceUserNotFound(reference);
  const person = readDeviceUser(item);
  await caller.groupScope().visible(person, () => deviceUserNotFound(reference));
  const name = [person.first_name, person.surname].filter((part) => part !== undefined && part !== '').join(' ');
  return { name: name === '' ? undefined : name };
}

/** The request, if the caller may see it (its device user in their groups), else 404. */
async function readVisible(caller: TenantCaller, reference: string): Promise<{ stored: TableItem; request: ErasureRequestItem }> {
  const stored = await caller.deps.table.get(erasureRequestKeys.key(caller.tenant, reference), { consistent: true });
  // A request retention disposed of (marked Deleted, or going) is answered as one that does not exist.
  if (stored === undefined || stored.retention_state !== undefined) throw notFound(reference);
  const request = readErasureRequest(stored);
  const person = await caller.deps.table.get(keys.deviceUser.key(caller.tenant, request.device_user_reference), { consistent: true });
  if (person === undefined) throw notFound(reference);
  await caller.groupScope().visible(readDeviceUser(person), () => notFound(reference));
  return { stored, request };
}

/**
 * `POST account/erasure_requests`: records the request `Recorded` with the decision job's running marker (one
 * transaction: the request exists if and only if its decision is tracked), then starts the decision.
 */
export async function createErasureRequest(caller: TenantCaller, body: z.output<typeof CreateErasureRequest>): Promise<ErasureRequest> {
  const { deps, tenant: client } = caller;
  const person = await requireDeviceUser(caller, body.device_user_reference);
  const now = deps.clock.now();
  const reference = ulid(now.getTime());
  const request: ErasureRequestItem = {
    client,
    erasure_request_reference: reference,
    device_user_reference: body.device_user_reference,
    // Kept with the request (its record of how the person's erasure was handled): the report names them after their
    // device user's personal fields are destroyed.
    ...(person.name === undefined ? {} : { device_user_name: person.name }),
    requester: body.requester,
    received_at: isoOf(body.received_at),
    channel: body.channel,
    ...(body.note === undefined ? {} : { note: body.note }),
    erasure_state: 'Recorded',
    outcomes: [],
    created_at: now.toISOString(),
    created_by: actorOf(caller.principal),
    created_by_actor: actorRecordOf(caller.principal) as unknown as Record<string, unknown>,
  };
  const tracked: TrackedJob = { client, kind: 'erasure-decision', id: reference, job: ERASURE_DECISION_JOB, input: { client, erasure_request_reference: reference } };
  await deps.table.transactWrite([
    { kind: 'put', item: erasureRequestToItem(request), condition: { kind: 'item-not-exists' } },
    startMarkerOperation(tracked, leaseUntil(deps.config, now), now),
  ]);
  // A start that is lost leaves the marker's lease to run out: the job-sweep starts the decision then.
  await deps.jobs.start(ERASURE_DECISION_JOB, tracked.input);
  return toErasureRequest(request);
}

/** `GET account/erasure_requests/{erasure_request_reference}`: the request, its progress, decision and report. */
export async function getErasureRequest(caller: TenantCaller, reference: string): Promise<ErasureRequest> {
  return toErasureRequest((await readVisible(caller, reference)).request);
}

/** `GET account/erasure_requests`: newest first, those about device users in the caller's groups. */
export async function listErasureRequests(caller: TenantCaller, query: QueryOf<typeof erasureRequestEndpoints, 'client.erasure-requests.list'>) {
  const { deps, tenant: client } = caller;
  const scope = caller.groupScope();
  return listPage(deps, {
    client,
    query: { ...erasureRequestKeys.list(client), descending: true },
    filters: { erasure_state: query.erasure_state, device_user_reference: query.device_user_reference },
    page: query,
    keep: async (items: readonly TableItem[]) => {
      const requests = items
        .filter((item) => item.retention_state === undefined)
        .map((item) => ({ item, request: readErasureRequest(item) }))
        .filter(({ request }) => (query.erasure_state === undefined || request.erasure_state === query.erasure_state) && (query.device_user_reference === undefined || request.device_user_reference === query.device_user_reference));
      if (scope.unrestricted || requests.length === 0) return requests.map(({ item }) => item);
      const people = await deps.table.batchGet([...new Set(requests.map(({ request }) => request.device_user_reference))].map((user) => keys.deviceUser.key(client, user)));
      const visible = new Set((await scope.filter(people.map(readDeviceUser))).map((user) => user.device_user_reference));
      return requests.filter(({ request }) => visible.has(request.device_user_reference)).map(({ item }) => item);
    },
    toData: (item) => toErasureRequest(readErasureRequest(item)),
  });
}

const inState = (state: string): WriteCondition => ({ kind: 'expression', expression: '#state = :state', names: { '#state': 'erasure_state' }, values: { ':state': state } });

/**
 * `POST account/erasure_requests/{erasure_request_reference}/review`: a second person approves (the request goes
 * `Approved` with the erasure job's running marker, in one transaction, and the job starts) or rejects (`Rejected`:
 * nothing is erased). The person who recorded the request cannot review it (403); only a `Decided` request is
 * reviewed (409 while the decision runs, and once reviewed).
 */
export async function reviewErasureRequest(caller: TenantCaller, reference: string, body: z.output<typeof ReviewErasureRequest>): Promise<ErasureRequest> {
  const { deps, tenant: client } = caller;
  const { request } = await readVisible(caller, reference);
  const reviewer = actorOf(caller.principal);
  if (reviewer === request.created_by) {
    throw new ForbiddenError('The person who recorded an erasure request cannot review it: a second person with erasureRequests:Review reviews it');
  }
  if (request.erasure_state === 'Recorded' || request.erasure_state === 'Deciding') {
    throw new ConflictError(`The erasure request is ${request.erasure_state}: it can be reviewed once its decision is made`);
  }
  if (request.erasure_state !== 'Decided') throw new ConflictError(`The erasure request was reviewed already: it is ${request.erasure_state}`);
  const now = deps.clock.now();
  const reviewed: ErasureRequestItem = {
    ...request,
    erasure_state: body.decision === 'Approve' ? 'Approved' : 'Rejected',
    review: { decision: body.decision, reason: body.reason, reviewed_by: reviewer, reviewed_by_actor: actorRecordOf(caller.principal), reviewed_at: now.toISOString() },
    ...(body.decision === 'Reject' ? { completed_at: now.toISOString() } : {}),
  };
  const item = { ...erasureRequestToItem(reviewed) };
  const tracked: TrackedJob = { client, kind: 'erasure-run', id: reference, job: ERASURE_RUN_JOB, input: { client, erasure_request_reference: reference } };
  try {
    await deps.table.transactWrite([
      { kind: 'put', item, condition: inState('Decided') },
      // Rejected, the request has ended: its retention marker (ErasureRequestData, from now) goes with it.
      ...(body.decision === 'Approve' ? [startMarkerOperation(tracked, leaseUntil(deps.config, now), now)] : dueMarkerPuts(client, item)),
    ]);
  } catch (error) {
    // Someone else reviewed it meanwhile.
    if (error instanceof ConditionFailedError) throw new ConflictError('The erasure request was reviewed already');
    throw error;
  }
  if (body.decision === 'Approve') await deps.jobs.start(ERASURE_RUN_JOB, tracked.input);
  return toErasureRequest(reviewed);
}
