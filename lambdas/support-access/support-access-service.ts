import { actorRecordOf, actorWords } from '#core/auth/actor.ts';
import { ulid } from 'ulid';
import type { SupportAccessApprovalState } from '#shared/constants/account.ts';
import type { SupportAccess, SupportAccessDecision, SupportAccessRequest } from '#shared/contract/entities/account-data.ts';
import type { CountOnly } from '#shared/contract/entities/common.ts';
import { raiseSecurityAlert } from '../alerts/public.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { NotFoundError, ValidationError } from '#core/errors.ts';
import type { Caller, TenantCaller } from '#core/http/caller.ts';
import type { Page } from '#core/store/cursor.ts';
import { eachPage, listPage, notDeletedByRetention, perItem, type PageQuery } from '#core/store/paging.ts';
import { keys } from '#core/store/keys.ts';
import { SupportAccessStateConflict, transition, type SupportAccessEvent } from './state-machine.ts';
import { changeState, getRequest, listSource, putRequest, toSupportAccess, type SupportAccessRecord } from './support-access-store.ts';
import { readSupportAccess } from '#core/store/entities/support-access.ts';

/** How far ahead staff may ask for access. The spec does not say; a month bounds a forgotten grant. */
export const MAX_REQUEST_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `logger`: every state change raises a sec alert, and a failed alert is logged rather than failing the change. */
type Deps = Pick<Dependencies, 'table' | 'clock' | 'cursors' | 'logger'>;

/** The tenant's sec alert for a request that has just entered its current state (security-events.ts). */
async function alertChange(deps: Pick<Dependencies, 'table' | 'clock' | 'logger'>, record: SupportAccessRecord, by: string): Promise<void> {
  const state = record.approval_state;
  await raiseSecurityAlert(deps, record.client, {
    kind: 'support-access',
    state,
    reference: record.request_reference,
    role: record.role,
    by,
    ...(state === 'approved' && record.approval_expiry !== undefined ? { until: record.approval_expiry } : {}),
  });
}

/** ULIDs are case-insensitive (Crockford base32); ours are stored upper-case, so a lower-case path still finds them. */
function normalise(reference: string): string {
  return reference.toUpperCase();
}

async function mustGet(deps: Deps, client: string, reference: string): Promise<SupportAccessRecord> {
  const record = await getRequest(deps.table, client, normalise(reference));
  if (record === undefined) throw new NotFoundError(`Support access request ${reference} not found`);
  return record;
}

/** Staff ask a tenant for a role until `requested_expiry` (state table: state-machine.ts). */
export async function requestSupportAccess(caller: TenantCaller, body: SupportAccessRequest): Promise<SupportAccess> {
  const { deps, tenant: client } = caller;
  // The request names who asked by their stable reference, with their name and e-mail as then.
  const actor = actorRecordOf(caller.principal);
  const now = deps.clock.now();
  const expiry = new Date(body.requested_expiry);
  const lines: string[] = [];
  if (expiry.getTime() <= now.getTime()) lines.push('body.requested_expiry: Must be in the future');
  else if (expiry.getTime() > now.getTime() + MAX_REQUEST_DAYS * DAY_MS) {
    lines.push(`body.requested_expiry: Must be at most ${MAX_REQUEST_DAYS} days ahead`);
  }
  const [account, role] = await Promise.all([
    deps.table.get(keys.account.item(client)),
    deps.table.get(keys.role.item(client, body.role)),
  ]);
  if (account === undefined) throw new NotFoundError(`Client ${client} not found`);
  if (role === undefined) lines.push(`body.role: No role ${body.role} in client ${client}`);
  if (lines.length > 0) throw new ValidationError(lines);

  const at = now.toISOString();
  const record: SupportAccessRecord = {
    client,
    request_reference: ulid(now.getTime()),
    requested_by: actor.reference,
    requested_by_actor: actor,
    role: body.role,
    request_description: body.request_description,
    requested_expiry: expiry.toISOString(),
    approval_state: 'pending',
    created_at: at,
    updated_at: at,
    updated_by: actor.reference,
  };
  await putRequest(deps.table, record);
  await alertChange(deps, record, actorWords(actor));
  return toSupportAccess(record);
}

export async function getSupportAccess(caller: TenantCaller, reference: string): Promise<SupportAccess> {
  return toSupportAccess(await mustGet(caller.deps, caller.tenant, reference));
}

/** Staff withdraw their request: a pending one is canceled, an approved one revoked (access ends now). */
export async function withdrawSupportAccess(caller: TenantCaller, reference: string): Promise<SupportAccess> {
  const { deps, tenant: client } = caller;
  const actor = actorRecordOf(caller.principal);
  const read = await mustGet(deps, client, reference);
  const to = transition(read.approval_state, 'withdraw');
  const updated = await changeState(deps.table, read, { event: 'withdraw', to, at: deps.clock.now().toISOString(), by: actor.reference });
  await alertChange(deps, updated, actorWords(actor));
  return toSupportAccess(updated);
}

const DECISION_EVENTS: Record<SupportAccessDecision['approval_state'], SupportAccessEvent> = {
  approved: 'approve',
  rejected: 'reject',
  revoked: 'revoke',
};

/** A tenant user approves (optionally for less time), rejects (with a reason) or revokes a request. */
export async function decideSupportAccess(caller: TenantCaller, reference: string, decision: SupportAccessDecision): Promise<SupportAccess> {
  const { deps, tenant: client } = caller;
  // The decision names who decided by their stable reference, with their name and e-mail as then.
  const actor = actorRecordOf(caller.principal);
  const event = DECISION_EVENTS[decision.approval_state];
  // What the decision itself lacks is a 400 whatever the request's state: the caller must fix the body either way.
  const lines: string[] = [];
  if (event === 'reject' && decision.rejection_reason === undefined) {
    lines.push('body.rejection_reason: The rejection_reason field is required.');
  }
  if (event === 'approve' && decision.rejection_reason !== undefined) {
    lines.push('body.rejection_reason: Only a rejection or a revocation has a reason');
  }
  if (event !== 'approve' && decision.approval_expiry !== undefined) {
    lines.push('body.approval_expiry: Only an approval has an expiry');
  }
  if (lines.length > 0) throw new ValidationError(lines);

  const read = await mustGet(deps, client, reference);
  const to = transition(read.approval_state, event);
  const now = deps.clock.now();
  const set: Record<string, unknown> = {};
  if (event === 'approve') {
    if (Date.parse(read.requested_expiry) <= now.getTime()) {
      // The expiry job has not reached it yet, but the period asked for is over: nothing is left to approve.
      throw new SupportAccessStateConflict('expired', 'approve');
    }
    const expiry = new Date(decision.approval_expiry ?? read.requested_expiry);
    if (expiry.getTime() <= now.getTime()) lines.push('body.approval_expiry: Must be in the future');
    if (expiry.getTime() > Date.parse(read.requested_expiry)) {
      lines.push(`body.approval_expiry: Must not be after the requested expiry ${read.requested_expiry}`);
    }
    if (lines.length > 0) throw new ValidationError(lines);
    set.approval_expiry = expiry.toISOString();
    set.approved_by = actor.reference;
    set.approved_by_actor = actor;
  } else if (decision.rejection_reason !== undefined) {
    set.rejection_reason = decision.rejection_reason;
  }
  const updated = await changeState(deps.table, read, { event, to, at: now.toISOString(), by: actor.reference, set });
  await alertChange(deps, updated, actorWords(actor));
  return toSupportAccess(updated);
}

/** The contract's paging fields, with the state to list. */
export interface ListOptions extends PageQuery {
  state?: SupportAccessApprovalState;
}

/**
 * A page of requests, newest first, or their count. A Query on a key or gsi1, never a Scan. The caller's tenant's
 * requests; a caller without a tenant (the internal console's list by status) lists across tenants, by `state`.
 */
export async function listSupportAccess(caller: Caller, options: ListOptions): Promise<Page<SupportAccess> | CountOnly> {
  const { deps, tenant: client } = caller;
  const { list, sort } = listSource({ client, state: options.state });
  // Cursors are bound to the caller's tenant (the provider's own for the cross-tenant list) and to the exact list.
  return listPage(deps, {
    client: client ?? 'admin',
    query: { ...list, ...(sort ? { sort } : {}), descending: true },
    filters: { state: options.state },
    page: options,
    // A request the retention job deleted leaves the lists.
    keep: perItem(notDeletedByRetention),
    toData: (item) => toSupportAccess(readSupportAccess(item)),
  });
}

/** What one run of the expiry job did. */
export interface ExpiryReport {
  expired: number;
  /** Requests another writer changed between the read and the write (it won; nothing to do). */
  skipped: number;
}

/** Page size of the expiry job's Query over each state partition. */
const EXPIRY_PAGE = 100;

/**
 * The expiry job: approved requests whose approval_expiry has passed, and pending ones whose requested_expiry has
 * passed, become expired. It Queries the `approved` and `pending` state partitions (gsi1), never Scans, and each
 * change is the same conditional write a decision uses, so a request decided meanwhile is left as decided.
 */
export async function expireDueRequests(deps: Pick<Dependencies, 'table' | 'clock' | 'logger'>): Promise<ExpiryReport> {
  const now = deps.clock.now();
  const report: ExpiryReport = { expired: 0, skipped: 0 };
  const dueField = { approved: 'approval_expiry', pending: 'requested_expiry' } as const;
  for (const state of ['approved', 'pending'] as const) {
    // Index reads are eventually consistent: the conditional write is what makes a stale read harmless.
    const list = keys.supportAccess.listByState(state);
    const due: SupportAccessRecord[] = [];
    for await (const page of eachPage(deps.table, list, EXPIRY_PAGE)) {
      for (const record of page.map(readSupportAccess)) {
        const at = record[dueField[state]];
        if (record.approval_state === state && (at === undefined || Date.parse(at) <= now.getTime())) due.push(record);
      }
    }
    // Written after the partition is read, so the writes (which move items out of it) cannot disturb the paging.
    for (const record of due) {
      try {
        const by = 'system:support-access-expiry';
        const expired = await changeState(deps.table, record, { event: 'expire', to: 'expired', at: now.toISOString(), by });
        report.expired += 1;
        await alertChange(deps, expired, by);
      } catch (error) {
        if (!(error instanceof SupportAccessStateConflict)) throw error;
        report.skipped += 1;
      }
    }
  }
  return report;
}
