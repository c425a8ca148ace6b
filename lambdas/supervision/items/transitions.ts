import type { SupervisionItemAction, SupervisionItemState } from '#shared/constants/supervision.ts';
import type { Actor } from '#shared/contract/entities/actor.ts';
import type { SupervisionHistoryEntry, SupervisionItemUpdate } from '#shared/contract/entities/supervision.ts';
import { ConflictError } from '#core/errors.ts';
import type { SupervisionItemStored } from '#core/store/entities/supervision-item.ts';

/**
 * What each reviewer's action does to an item, as pure functions of the item read (the store writes the result with
 * its history entry in one transaction, on condition nobody changed the item meanwhile):
 *
 * - claim: Open → Claimed, held by the caller. An Escalated item stays Escalated and gets the caller as its holder
 *   (escalation is a state of the review, not of who works it). A Claimed item someone else holds must be released or
 *   assigned first: claiming it would take it from them unseen.
 * - release: Claimed → Open, nobody holds it; an Escalated item loses its holder and stays Escalated. Any reviewer may
 *   release (a reviewer may assign it to anyone anyway); the history names who did.
 * - assign: Open or Claimed → Claimed, held by the named portal user; Escalated stays Escalated with that holder.
 * - escalate: Open or Claimed → Escalated, keeping its holder.
 * - close: Open, Claimed or Escalated → Closed with the disposition and note; the holder is kept as who worked it.
 * - reopen: Closed → Open with the reason; the disposition, note and closing are cleared from the item (the history
 *   keeps them), and nobody holds it.
 *
 * Anything else is a 409 saying why.
 */

/** The new item and the history entry that says what happened. */
interface Transition {
  next: SupervisionItemStored;
  entry: SupervisionHistoryEntry;
}

interface ActionContext {
  actor: Actor;
  now: string;
  isBulk: boolean;
  /** For assign: the portal user assigned, as records name them. */
  assignee?: Actor | undefined;
}

function refuse(item: SupervisionItemStored, action: SupervisionItemAction, why?: string): never {
  throw new ConflictError(why ?? `Cannot ${action} an item that is ${item.state}`);
}

function withoutHolder(item: SupervisionItemStored): SupervisionItemStored {
  const { assignee: _assignee, assignee_actor: _actor, ...rest } = item;
  return rest;
}

function withoutClosing(item: SupervisionItemStored): SupervisionItemStored {
  const { disposition: _d, note: _n, closed_by: _by, closed_by_actor: _byActor, closed_at: _at, ...rest } = item;
  return rest;
}

function held(item: SupervisionItemStored, holder: Actor): SupervisionItemStored {
  return { ...item, assignee: holder.reference, assignee_actor: holder };
}

/** The item after `update` by `context.actor`, or a ConflictError when the action does not apply to its state. */
export function applyAction(item: SupervisionItemStored, update: SupervisionItemUpdate, context: ActionContext): Transition {
  const next = nextItem(item, update, context);
  const stamped: SupervisionItemStored = { ...next, updated_at: context.now, item_version: item.item_version + 1 };
  const note = 'note' in update ? update.note : undefined;
  const entry: SupervisionHistoryEntry = {
    event: update.action,
    at: context.now,
    by: context.actor.reference,
    by_actor: context.actor,
    from_state: item.state,
    to_state: stamped.state,
    ...(update.action === 'close' ? { disposition: update.disposition } : {}),
    ...(note === undefined ? {} : { note }),
    ...(stamped.assignee === undefined || stamped.assignee === item.assignee ? {} : { assignee: stamped.assignee, ...(stamped.assignee_actor === undefined ? {} : { assignee_actor: stamped.assignee_actor }) }),
    is_bulk: context.isBulk,
  };
  return { next: stamped, entry };
}

const OUTSTANDING: ReadonlySet<SupervisionItemState> = new Set(['Open', 'Claimed', 'Escalated']);

function nextItem(item: SupervisionItemStored, update: SupervisionItemUpdate, context: ActionContext): SupervisionItemStored {
  const { actor } = context;
  switch (update.action) {
    case 'claim':
      if (item.state === 'Open') return { ...held(item, actor), state: 'Claimed' };
      if (item.state === 'Escalated') {
        if (item.assignee === actor.reference) refuse(item, 'claim', 'You already hold this item');
        return held(item, actor);
      }
      if (item.state === 'Claimed') refuse(item, 'claim', item.assignee === actor.reference ? 'You already hold this item' : 'The item is claimed by someone else; release or assign it first');
      return refuse(item, 'claim');
    case 'release':
      if (item.state === 'Claimed') return { ...withoutHolder(item), state: 'Open' };
      if (item.state === 'Escalated' && item.assignee !== undefined) return withoutHolder(item);
      return refuse(item, 'release', item.state === 'Escalated' ? 'Nobody holds this item' : undefined);
    case 'assign': {
      if (context.assignee === undefined) throw new Error('assign needs the assignee looked up');
      if (!OUTSTANDING.has(item.state)) refuse(item, 'assign');
      if (item.assignee === context.assignee.reference) refuse(item, 'assign', 'The item is already assigned to that user');
      return { ...held(item, context.assignee), state: item.state === 'Escalated' ? 'Escalated' : 'Claimed' };
    }
    case 'escalate':
      if (item.state === 'Open' || item.state === 'Claimed') return { ...item, state: 'Escalated' };
      return refuse(item, 'escalate');
    case 'close':
      if (!OUTSTANDING.has(item.state)) refuse(item, 'close');
      return {
        ...item,
        state: 'Closed',
        disposition: update.disposition,
        ...(update.note === undefined ? {} : { note: update.note }),
        closed_by: actor.reference,
        closed_by_actor: actor,
        closed_at: context.now,
      };
    case 'reopen':
      if (item.state !== 'Closed') refuse(item, 'reopen');
      return { ...withoutHolder(withoutClosing(item)), state: 'Open' };
  }
}
