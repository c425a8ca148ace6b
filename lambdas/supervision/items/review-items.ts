import type { Actor } from '#shared/contract/entities/actor.ts';
import type { BulkResult } from '#shared/contract/entities/alerts.ts';
import type { SupervisionBulkUpdate, SupervisionItemDetail, SupervisionItemUpdate } from '#shared/contract/entities/supervision.ts';
import { actorRecordOf } from '#core/auth/actor.ts';
import { ConflictError, ForbiddenError, HttpError, NotFoundError, ValidationError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { readDeviceUser } from '#core/store/entities/device-user.ts';
import { readPortalUser } from '#core/store/entities/portal-user.ts';
import { toSupervisionItem, type SupervisionItemStored } from '#core/store/entities/supervision-item.ts';
import { keys } from '#core/store/keys.ts';
import { readHistory, readStoredEntry, writeChange } from './item-store.ts';
import { versionWrites } from '../../audit/public.ts';
import { applyAction } from './transitions.ts';

const NOT_FOUND = 'Review item not found';
export const OWN_REVIEW = 'You cannot close a review of your own communications';
/** Tries of one transition while others change the item (each try reads it again and decides anew). */
const WRITE_TRIES = 3;

/**
 * The item when it exists and the caller's scopes (payload types and groups, for the endpoint's action) allow it;
 * else the same 404 as a missing item, so a refusal never tells that the item exists.
 */
async function visibleItem(caller: TenantCaller, itemReference: string): Promise<SupervisionItemStored> {
  return (await visibleEntry(caller, itemReference)).stored;
}

/** `visibleItem`, with the item's attributes exactly as stored. */
async function visibleEntry(caller: TenantCaller, itemReference: string) {
  const entry = await readStoredEntry(caller.deps, caller.tenant, itemReference);
  const item = entry?.stored;
  // An item retention disposed of (Deleted, or Destroyed while its history goes) is gone for every reader.
  if (entry === undefined || item === undefined || item.retention_state !== undefined || (await caller.payloadScope().check(item)) !== undefined) throw new NotFoundError(NOT_FOUND);
  return entry;
}

async function detailOf(caller: TenantCaller, item: SupervisionItemStored): Promise<SupervisionItemDetail> {
  const history = await readHistory(caller.deps, caller.tenant, item.item_reference);
  return { ...toSupervisionItem(item, caller.deps.clock.now()), history };
}

/** `GET supervision/items/{item_reference}`: the item with its whole history, oldest first. */
export async function readItemDetail(caller: TenantCaller, itemReference: string): Promise<SupervisionItemDetail> {
  return detailOf(caller, await visibleItem(caller, itemReference));
}

/** The portal user an item is assigned to, as records name people; a 400 when the tenant has no such user. */
async function assigneeActor(caller: TenantCaller, reference: string): Promise<Actor> {
  const stored = await caller.deps.table.get(keys.portalUser.item(caller.tenant, reference));
  if (stored === undefined) throw new ValidationError([`body.assignee: No portal user "${reference}" in this tenant`]);
  const user = readPortalUser(stored);
  const name = [user.first_name, user.surname].filter((part) => part !== undefined && part.length > 0).join(' ');
  return { reference, kind: 'user', ...(name.length > 0 ? { name } : {}), ...(user.email === undefined ? {} : { email: user.email }) };
}

/**
 * A reviewer never closes the review of their own communications (supervision is of others): the item's device user
 * has the caller's e-mail, compared without case, as the device user's record has it now.
 */
async function refuseOwnReview(caller: TenantCaller, item: SupervisionItemStored, actor: Actor): Promise<void> {
  if (actor.email === undefined || item.device_user_reference === undefined) return;
  const stored = await caller.deps.table.get(keys.deviceUser.key(caller.tenant, item.device_user_reference));
  const email = stored === undefined ? undefined : readDeviceUser(stored).email;
  if (email !== undefined && email.trim().toLowerCase() === actor.email.trim().toLowerCase()) throw new ForbiddenError(OWN_REVIEW);
}

interface ReviewContext {
  actor: Actor;
  assignee: Actor | undefined;
  isBulk: boolean;
}

/** One action on one item: read, decide, write with its history entry; again when someone changed it meanwhile. */
async function reviewOne(caller: TenantCaller, itemReference: string, update: SupervisionItemUpdate, context: ReviewContext): Promise<SupervisionItemStored> {
  for (let attempt = 1; attempt <= WRITE_TRIES; attempt += 1) {
    const { item: read, stored: item } = await visibleEntry(caller, itemReference);
    if (update.action === 'close') await refuseOwnReview(caller, item, context.actor);
    const { next, entry } = applyAction(item, update, { ...context, now: caller.deps.clock.now().toISOString() });
    // The item as it was is kept with the change (the version condition makes it exactly the one replaced).
    const also = versionWrites(caller, [{ entity: 'supervision-item', reference: itemReference, stored: read, change: 'updated' }]);
    if (await writeChange(caller.deps, caller.tenant, { next, previousVersion: item.item_version, entries: [entry], wasClosed: item.state === 'Closed', also })) return next;
  }
  throw new ConflictError('The item kept changing while it was reviewed; reload it and try again');
}

/** `PUT supervision/items/{item_reference}`: the item after the action, with its history. */
export async function reviewItem(caller: TenantCaller, itemReference: string, update: SupervisionItemUpdate): Promise<SupervisionItemDetail> {
  const actor = actorRecordOf(caller.principal);
  const assignee = update.action === 'assign' ? await assigneeActor(caller, update.assignee) : undefined;
  const next = await reviewOne(caller, itemReference, update, { actor, assignee, isBulk: false });
  return detailOf(caller, next);
}

/** The single action a bulk request applies to each of its items. */
function singleOf(bulk: SupervisionBulkUpdate): SupervisionItemUpdate {
  const { item_references: _references, ...update } = bulk;
  return update as SupervisionItemUpdate;
}

/**
 * `PUT supervision/items`: the same action on each item in turn, each with its own history entry marked bulk, and a
 * result per reference (a refusal, 404, 409 or 403, is that item's message; the others go on).
 */
export async function reviewItems(caller: TenantCaller, bulk: SupervisionBulkUpdate): Promise<BulkResult> {
  const actor = actorRecordOf(caller.principal);
  const update = singleOf(bulk);
  const assignee = update.action === 'assign' ? await assigneeActor(caller, update.assignee) : undefined;
  const data: BulkResult['data'] = [];
  for (const reference of bulk.item_references) {
    try {
      await reviewOne(caller, reference, update, { actor, assignee, isBulk: true });
      data.push({ reference, ok: true });
    } catch (error) {
      if (!(error instanceof HttpError) || error.status >= 500) throw error;
      data.push({ reference, ok: false, message: error.lines.join('; ') });
    }
  }
  return { data };
}
