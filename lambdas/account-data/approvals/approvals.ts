import { ulid } from 'ulid';
import { actorOf, actorRecordOf, actorWords, jobActor } from '#core/auth/actor.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '#core/errors.ts';
import { callerOf, type TenantCaller } from '#core/http/caller.ts';
import { ConditionFailedError, type TableItem, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';
import { readDeviceUser } from '#core/store/entities/device-user.ts';
import { keys } from '#core/store/keys.ts';
import { listPage, type QueryOf } from '#core/store/paging.ts';
import { actionInWords } from '#shared/contract/action-wording.ts';
import { APPROVAL_EXPIRY_DAYS, type ApprovalKind, type PendingChange } from '#shared/contract/entities/approvals.ts';
import type { RetentionPolicyRequest } from '#shared/contract/entities/account-data.ts';
import type { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { writeActivityRecordWith } from '../../audit/public.ts';
import { dueMarkerPuts, dueMarkerSync } from '../retention/due-index.ts';
import {
  approvalKeys,
  approvalToItem,
  lockItem,
  readApproval,
  targetOf,
  toPendingChange,
  type ApprovalItem,
  type ApprovalTarget,
} from './approval-store.ts';

/** The job name an expiry's activity record is written under: nobody acted, the time ran out. */
export const APPROVAL_EXPIRY = 'approval-expiry';
/** The action an expiry's activity record names: no role performs it (shared/contract/actions.ts `SYSTEM_ACTION_DESCRIPTIONS`), the audit screen words it. */
const EXPIRE_ACTION = 'approvals:Expire';

const DAY_MS = 86_400_000;

/** What a request stores: the change and what it shortens, in words. */
export interface ChangeRequest {
  kind: ApprovalKind;
  target: ApprovalTarget;
  /** The permission the change needs (its approver must hold it too). */
  action: string;
  shortens: string[];
  retentionPolicy?: RetentionPolicyRequest;
  /** The retention policy's `updated_at` the change was judged against: approving it over a newer policy is refused. */
  basedOn?: string | undefined;
  reason?: string | undefined;
}

const statusIs = (status: string): WriteCondition => ({ kind: 'expression', expression: '#s = :s', names: { '#s': 'status' }, values: { ':s': status } });
const lockNames = (reference: string): WriteCondition => ({
  kind: 'expression',
  expression: '#r = :r',
  names: { '#r': 'approval_reference' },
  values: { ':r': reference },
});

const targetWords = (approval: Pick<ApprovalItem, 'kind' | 'target_type' | 'target'>) =>
  approval.kind === 'LegalHoldRelease' ? `the legal hold on ${approval.target_type} ${approval.target}` : 'the retention policy';

/**
 * Stores the change as pending, with the lock that makes it the only one waiting on its target (409 naming the one
 * already waiting; one whose time ran out is expired first, and the request goes through).
 */
export async function requestChange(caller: TenantCaller, request: ChangeRequest): Promise<PendingChange> {
  const { deps, tenant: client, principal } = caller;
  const now = deps.clock.now();
  const approval: ApprovalItem = {
    client,
    approval_reference: ulid(now.getTime()),
    kind: request.kind,
    status: 'Pending',
    action: request.action,
    ...(request.target.kind === 'hold' ? { target_type: request.target.hold.targetType, target: request.target.hold.target } : {}),
    ...(request.retentionPolicy === undefined ? {} : { retention_policy: request.retentionPolicy }),
    shortens: request.shortens,
    ...(request.reason === undefined ? {} : { reason: request.reason }),
    requested_by: actorOf(principal),
    requested_by_actor: actorRecordOf(principal),
    requested_at: now.toISOString(),
    expires_at: new Date(now.getTime() + APPROVAL_EXPIRY_DAYS * DAY_MS).toISOString(),
  };
  const item = { ...approvalToItem(approval), ...(request.basedOn === undefined ? {} : { based_on: request.basedOn }) };
  for (let attempt = 1; ; attempt += 1) {
    try {
      await deps.table.transactWrite([
        { kind: 'put', item, condition: { kind: 'item-not-exists' } },
        { kind: 'put', item: lockItem(client, request.target, approval.approval_reference), condition: { kind: 'item-not-exists' } },
      ]);
      return toPendingChange(approval);
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      const waiting = await waitingOn(caller, request.target);
      // The lock's change expired (now recorded) or was decided meanwhile: the target is free, try once more.
      if (waiting === undefined && attempt < 3) continue;
      if (waiting === undefined) throw new ConflictError(`A change of ${targetWords(approval)} was requested at the same time; read it again`);
      throw new ConflictError(
        `A change of ${targetWords(approval)} already awaits a second approver: ${waiting.approval_reference}, requested by ${actorWords(waiting.requested_by_actor)} on ${waiting.requested_at}`,
      );
    }
  }
}

/** The change still pending on a target, expired first when its time ran out; undefined when none waits. */
export async function waitingOn(caller: TenantCaller, target: ApprovalTarget): Promise<ApprovalItem | undefined> {
  const lock = await caller.deps.table.get(approvalKeys.lock(caller.tenant, target), { consistent: true });
  if (lock === undefined || typeof lock.approval_reference !== 'string') return undefined;
  const stored = await caller.deps.table.get(approvalKeys.change(caller.tenant, lock.approval_reference), { consistent: true });
  if (stored === undefined) return undefined;
  const approval = readApproval(await settle(caller, stored));
  return approval.status === 'Pending' ? approval : undefined;
}

/**
 * The change as it stands now: a pending one whose time ran out is expired here (decided lazily, on read), its lock
 * freed and an activity record of the expiry written in the same transaction, naming the job and the requester. A
 * record that cannot be written fails the read, as any unrecorded act would.
 */
async function settle(caller: Pick<TenantCaller, 'deps' | 'tenant' | 'requestId'>, item: TableItem): Promise<TableItem> {
  const { deps, tenant: client } = caller;
  const approval = readApproval(item);
  const now = deps.clock.now();
  if (approval.status !== 'Pending' || Date.parse(approval.expires_at) > now.getTime()) return item;
  const expired: ApprovalItem = { ...approval, status: 'Expired', decided_at: approval.expires_at };
  const actor = jobActor(APPROVAL_EXPIRY);
  const entry = {
    user_id: actor.reference,
    actor,
    roles: [],
    action: EXPIRE_ACTION,
    is_allowed: true,
    activity_time: now.toISOString(),
    parameters: {
      approval_reference: approval.approval_reference,
      kind: approval.kind,
      requested_by: approval.requested_by,
      ...(approval.target === undefined ? {} : { target_type: approval.target_type, target: approval.target }),
    },
    is_client_app: false,
  };
  await writeActivityRecordWith(deps, { trail: 'user', client, entry, requestId: caller.requestId }, async () => {
    // Re-read before every attempt: a decision (or another read's expiry) may have won, and then nothing is left to do.
    const current = await deps.table.get(approvalKeys.change(client, approval.approval_reference), { consistent: true });
    if (current === undefined || readApproval(current).status !== 'Pending') return undefined;
    return decisionWrites(approval, { ...approvalToItem(expired), ...basedOnOf(current) });
  });
  const after = await deps.table.get(approvalKeys.change(client, approval.approval_reference), { consistent: true });
  return after ?? item;
}

const basedOnOf = (item: TableItem) => (typeof item.based_on === 'string' ? { based_on: item.based_on } : {});

/**
 * The decided change replaces the pending one (still pending as read), and its target's lock goes. Decided, it is a
 * retained record (UserActivityData, from its decision): its retention marker is written with it.
 */
function decisionWrites(pending: ApprovalItem, decided: TableItem): TransactOperation[] {
  const { pk, sk } = approvalKeys.lock(pending.client, targetOf(pending));
  return [
    { kind: 'put', item: decided, condition: statusIs('Pending') },
    { kind: 'delete', key: { pk, sk }, condition: lockNames(pending.approval_reference) },
    ...dueMarkerPuts(pending.client, decided),
  ];
}

/** A change retention disposed of (marked Deleted, or going) is answered as one that does not exist. */
const disposed = (item: TableItem) => item.retention_state !== undefined;

/** The stored change (404 when this tenant has none by that reference), settled. */
async function readSettled(caller: TenantCaller, reference: string): Promise<TableItem> {
  const item = await caller.deps.table.get(approvalKeys.change(caller.tenant, reference), { consistent: true });
  // A release of a hold on a device user outside the caller's groups is answered as one that does not exist.
  if (item === undefined || disposed(item) || (await inGroupScope(caller, [item])).length === 0) throw new NotFoundError(`Pending change ${reference} not found`);
  return settle(caller, item);
}

/** `GET approvals/{approval_reference}`. */
export async function readChange(caller: TenantCaller, reference: string): Promise<PendingChange> {
  return toPendingChange(readApproval(await readSettled(caller, reference)));
}

/** `GET approvals`: newest first, each settled (expired when its time ran out), one status's with `status`. */
export async function listChanges(caller: TenantCaller, query: QueryOf<typeof accountDataEndpoints, 'client.approvals.list'>) {
  const { deps, tenant: client } = caller;
  return listPage(deps, {
    client,
    query: { ...approvalKeys.list(client), descending: true },
    filters: { status: query.status },
    page: query,
    keep: async (items) => {
      const settled: TableItem[] = [];
      for (const item of items.filter((stored) => !disposed(stored))) settled.push(await settle(caller, item));
      return inGroupScope(caller, query.status === undefined ? settled : settled.filter((item) => item.status === query.status));
    },
    toData: (item) => toPendingChange(readApproval(item)),
  });
}

/**
 * A group-limited role sees the releases of holds on device users of its groups only (as it sees those holds), and
 * every retention change and portal user's hold (which belong to no group).
 */
async function inGroupScope(caller: TenantCaller, items: readonly TableItem[]): Promise<TableItem[]> {
  const scope = caller.groupScope();
  if (scope.unrestricted) return [...items];
  const deviceUsers = [...new Set(items.filter((item) => item.target_type === 'DeviceUser').map((item) => String(item.target)))];
  const found = await caller.deps.table.batchGet(deviceUsers.map((user) => keys.deviceUser.key(caller.tenant, user)));
  const visible = new Set((await scope.filter(found.map(readDeviceUser))).map((user) => user.device_user_reference));
  return items.filter((item) => item.target_type !== 'DeviceUser' || visible.has(String(item.target)));
}

/** A decision is made on a pending change only: one decided or expired answers 409 saying what became of it. */
function requirePending(approval: ApprovalItem): void {
  if (approval.status === 'Pending') return;
  const by = approval.decided_by_actor === undefined ? '' : ` by ${actorWords(approval.decided_by_actor)}`;
  throw new ConflictError(`Pending change ${approval.approval_reference} is ${approval.status.toLowerCase()}${by} (${approval.decided_at ?? ''}); nothing more can be decided on it`);
}

/** The approver (or a rejecter other than the requester) must hold the permission the change itself needs. */
function requirePermission(caller: TenantCaller, approval: ApprovalItem, act: string): void {
  if (caller.access?.can(approval.action) === true) return;
  throw new ForbiddenError(`${act} this change needs the permission the change needs: your roles do not allow ${actionInWords(approval.action)}`);
}

/** What applies an approved change: the same code path the direct change takes, as the approver. */
export type ApplyChange = (caller: TenantCaller, approval: ApprovalItem, stored: TableItem) => Promise<void>;

/**
 * `POST approvals/{approval_reference}/approve`: someone other than the requester, holding the change's permission,
 * approves it; it is marked approved (so no second approval can apply it twice) and then applied through the direct
 * change's own code path as the approver (versions, object syncs and audit as any change). If applying fails, the
 * change is put back to pending and the failure answered.
 */
export async function approveChange(caller: TenantCaller, reference: string, apply: ApplyChange): Promise<PendingChange> {
  const { deps, principal } = caller;
  const stored = await readSettled(caller, reference);
  const approval = readApproval(stored);
  requirePending(approval);
  if (actorOf(principal) === approval.requested_by) {
    throw new ForbiddenError('You requested this change: a second person who may make it must approve it');
  }
  requirePermission(caller, approval, 'Approving');
  const decided: ApprovalItem = {
    ...approval,
    status: 'Approved',
    decided_by: actorOf(principal),
    decided_by_actor: actorRecordOf(principal),
    decided_at: deps.clock.now().toISOString(),
  };
  await decide(caller, approval, { ...approvalToItem(decided), ...basedOnOf(stored) });
  // The change's own permission, so the group scope and the activity's wording are those of the direct change.
  const asChange = callerOf({ ...caller, action: approval.action });
  try {
    await apply(asChange, approval, stored);
  } catch (error) {
    await deps.table.transactWrite([
      { kind: 'put', item: stored, condition: statusIs('Approved') },
      { kind: 'put', item: lockItem(caller.tenant, targetOf(approval), approval.approval_reference), condition: { kind: 'item-not-exists' } },
      // Pending again: its retention marker goes.
      ...dueMarkerSync(caller.tenant, stored),
    ]);
    throw error;
  }
  return toPendingChange(decided);
}

/** `POST approvals/{approval_reference}/reject`: nothing changes. The requester may withdraw their own. */
export async function rejectChange(caller: TenantCaller, reference: string, reason: string | undefined): Promise<PendingChange> {
  const { deps, principal } = caller;
  const stored = await readSettled(caller, reference);
  const approval = readApproval(stored);
  requirePending(approval);
  if (actorOf(principal) !== approval.requested_by) requirePermission(caller, approval, 'Rejecting');
  const decided: ApprovalItem = {
    ...approval,
    status: 'Rejected',
    decided_by: actorOf(principal),
    decided_by_actor: actorRecordOf(principal),
    decided_at: deps.clock.now().toISOString(),
    ...(reason === undefined ? {} : { decision_reason: reason }),
  };
  await decide(caller, approval, { ...approvalToItem(decided), ...basedOnOf(stored) });
  return toPendingChange(decided);
}

async function decide(caller: TenantCaller, pending: ApprovalItem, decided: TableItem): Promise<void> {
  try {
    await caller.deps.table.transactWrite(decisionWrites(pending, decided));
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ConflictError(`Pending change ${pending.approval_reference} was decided meanwhile; read it again`);
    throw error;
  }
}

