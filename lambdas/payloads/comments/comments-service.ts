import { monotonicFactory } from 'ulid';
import { CALL_PAYLOAD_TYPES, type PayloadType } from '#shared/constants.ts';
import type { PayloadComment, CommentPostRequest, CommentPutRequest } from '#shared/contract/entities/comments.ts';
import { expandPayloadTypes, type payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '#core/errors.ts';
import { ConditionFailedError, type TableItem, type WriteCondition } from '#core/ports/table-store.ts';
import type { Page } from '#core/store/cursor.ts';
import { commentToItem, readComment, toPayloadComment, type CommentItem } from '#core/store/entities/comment.ts';
import { readPayload, type PayloadItem } from '#core/store/entities/payload.ts';
import { keys } from '#core/store/keys.ts';
import { timeRangeOrAll } from '#core/store/time-range.ts';
import { actorRecordOf } from '#core/auth/actor.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { listPage, perItem, type QueryOf } from '#core/store/paging.ts';
import { versionWrites } from '../../audit/public.ts';

type Deps = Pick<Dependencies, 'table' | 'clock' | 'cursors'>;

/** Payload types that are recordings with a timeline a comment can anchor to. */
const TIMED_TYPES: ReadonlySet<PayloadType> = new Set<PayloadType>([...CALL_PAYLOAD_TYPES, 'Interview', 'Video']);

const nextId = monotonicFactory();

/**
 * The payload a comment belongs to, after the group and type checks for the endpoint's action (404 when missing, 403
 * when hidden).
 */
async function readablePayload(caller: TenantCaller, payloadReference: string): Promise<PayloadItem> {
  const item = await caller.deps.table.get(keys.payload.key(caller.tenant, payloadReference));
  if (item === undefined) throw new NotFoundError('Payload not found');
  const payload = readPayload(item);
  const refusal = await caller.payloadScope().check({ payload_type: payload.payload_type, group: payload.group });
  if (refusal !== undefined) throw new ForbiddenError(refusal);
  return payload;
}

/**
 * A destroyed recording takes no comment, and its comments go (destroyed-recording-comments.ts): a write to one is
 * refused with 409, as restoring it is.
 */
const DESTROYED = 'payload_state: A destroyed recording takes no comments; its content no longer exists';

function refuseDestroyed(payload: PayloadItem): void {
  if (payload.payload_state === 'Destroyed') throw new ConflictError(DESTROYED);
}

/** The payload item is still in the state read (the check beside a new comment's put). */
function stillInState(payload: PayloadItem): WriteCondition {
  return { kind: 'expression', expression: '#state = :state', names: { '#state': 'payload_state' }, values: { ':state': payload.payload_state } };
}

/** Tries of a new comment's write while its recording changes state under it. */
const COMMENT_WRITE_TRIES = 3;

/**
 * The recording's length in seconds when the payload says it: the processing step stores the meta's
 * `payload_duration` (interview, video) or `payload_full_duration` (calls) on the item; older items may hold the meta
 * decrypted. Unknown (undefined) means any span is accepted.
 */
export function recordingDuration(payload: PayloadItem): number | undefined {
  const meta = typeof payload.meta === 'object' ? payload.meta : {};
  for (const value of [payload.payload_duration, payload.payload_full_duration, meta.payload_duration, meta.payload_full_duration]) {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  }
  return undefined;
}

/** A comment's span must be on a recording and inside it (when its length is known). */
function checkSpan(payload: PayloadItem, span: CommentPostRequest['comment_duration']): void {
  if (span === undefined) return;
  if (!TIMED_TYPES.has(payload.payload_type)) {
    throw new ValidationError([`body.comment_duration: A ${payload.payload_type} payload has no timeline to anchor a comment to`]);
  }
  const length = recordingDuration(payload);
  // Spans are in tenths: the end is compared in whole tenths, so a floating-point sum (0.1 + 0.2 is 0.30000000000000004)
  // never pushes a span that ends on the recording's last tenth past it.
  if (length !== undefined && Math.round((span.start_time + span.duration) * 10) > Math.round(length * 10)) {
    throw new ValidationError([`body.comment_duration: Must lie within the recording (${length} seconds)`]);
  }
}

export function toComment(item: TableItem): PayloadComment {
  return toPayloadComment(readComment(item));
}

/** Raise a comment on a payload the caller may act on. */
export async function createComment(caller: TenantCaller, payloadReference: string, body: CommentPostRequest): Promise<PayloadComment> {
  const { deps, tenant: client } = caller;
  const actor = actorRecordOf(caller.principal);
  const payload = await readablePayload(caller, payloadReference);
  refuseDestroyed(payload);
  checkSpan(payload, body.comment_duration);
  const now = deps.clock.now();
  const commentId = nextId(now.getTime());
  const comment: CommentItem = {
    comment_id: commentId,
    comment_body: body.message,
    raised_by: actor.reference,
    raised_by_actor: actor,
    raised_at: now.toISOString(),
    comment_version: 1,
    is_closed: false,
    ...(body.comment_duration === undefined ? {} : { comment_duration: body.comment_duration }),
    payload_reference: payloadReference,
    payload_type: payload.payload_type,
    ...(payload.group === undefined ? {} : { group: payload.group }),
  };
  // With a check that the recording is still in the state read (so not destroyed): a comment put after retention
  // removed its recording's comments would otherwise outlive the recording. A recording that changed state meanwhile
  // is read again.
  let current = payload;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await deps.table.transactWrite([
        { kind: 'check', key: keys.payload.key(client, payloadReference), condition: stillInState(current) },
        { kind: 'put', item: commentToItem(client, comment), condition: { kind: 'item-not-exists' } },
      ]);
      break;
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      current = await readablePayload(caller, payloadReference);
      refuseDestroyed(current);
      if (attempt >= COMMENT_WRITE_TRIES) throw new ConflictError('The recording changed while the comment was written; try again');
    }
  }
  return toPayloadComment(comment);
}

async function storedComment(deps: Deps, client: string, payloadReference: string, commentId: string): Promise<CommentItem> {
  return readComment(await storedCommentItem(deps, client, payloadReference, commentId));
}

/** The comment's item as stored: what its version keeps when it changes. */
async function storedCommentItem(deps: Deps, client: string, payloadReference: string, commentId: string): Promise<TableItem> {
  const item = await deps.table.get(keys.comment.key(client, payloadReference, commentId), { consistent: true });
  if (item === undefined) throw new NotFoundError('Comment not found');
  return item;
}

/** The history endpoint's reference of a comment: its payload's and its own (lambdas/audit/history). */
export const commentHistoryReference = (payloadReference: string, commentId: string) => `${payloadReference}~${commentId}`;

/**
 * Writes a comment change with the version it replaces (lambdas/audit/versions/versioned-write.ts) in one transaction, and
 * answers the comment as now stored (the change's attributes over the item as read: the condition held it unchanged).
 */
async function changeComment(caller: TenantCaller, stored: TableItem, set: Record<string, unknown>, condition: WriteCondition): Promise<TableItem> {
  const current = readComment(stored);
  await caller.deps.table.transactWrite([
    { kind: 'update', key: { pk: stored.pk, sk: stored.sk }, update: { set }, condition },
    ...versionWrites(caller, [{ entity: 'comment', reference: commentHistoryReference(current.payload_reference, current.comment_id), stored, change: 'updated' }]),
  ]);
  return { ...stored, ...set };
}

/** Edit a comment: a new comment_version, stamped with who and when. A closed comment is final (409). */
export async function updateComment(caller: TenantCaller, payloadReference: string, commentId: string, body: CommentPutRequest): Promise<PayloadComment> {
  const { deps, tenant: client } = caller;
  const actor = actorRecordOf(caller.principal);
  if (body.message === undefined && body.comment_duration === undefined) {
    throw new ValidationError(['body: Give message or comment_duration']);
  }
  const payload = await readablePayload(caller, payloadReference);
  refuseDestroyed(payload);
  checkSpan(payload, body.comment_duration);
  const stored = await storedCommentItem(deps, client, payloadReference, commentId);
  const current = readComment(stored);
  if (current.is_closed === true) throw new ConflictError('Comment is closed and cannot be edited');
  const version = current.comment_version;
  try {
    // The version in the condition makes concurrent edits one-at-a-time: the loser gets a 409, not a lost update.
    const updated = await changeComment(
      caller,
      stored,
      {
        ...(body.message === undefined ? {} : { comment_body: body.message }),
        ...(body.comment_duration === undefined ? {} : { comment_duration: body.comment_duration }),
        comment_version: version + 1,
        updated_by: actor.reference,
        updated_by_actor: actor,
        updated_at: deps.clock.now().toISOString(),
      },
      {
        kind: 'expression',
        expression: '#closed = :open AND #version = :version',
        names: { '#closed': 'is_closed', '#version': 'comment_version' },
        values: { ':open': false, ':version': version },
      },
    );
    return toComment(updated);
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ConflictError('Comment was closed or edited meanwhile; reload it');
    throw error;
  }
}

/** Close (logically delete) a comment: it stays readable with closed_by and closed_at. Closing twice changes nothing. */
export async function closeComment(caller: TenantCaller, payloadReference: string, commentId: string): Promise<PayloadComment> {
  const { deps, tenant: client } = caller;
  const actor = actorRecordOf(caller.principal);
  refuseDestroyed(await readablePayload(caller, payloadReference));
  const stored = await storedCommentItem(deps, client, payloadReference, commentId);
  const current = readComment(stored);
  if (current.is_closed === true) return toPayloadComment(current);
  try {
    const updated = await changeComment(
      caller,
      stored,
      { is_closed: true, closed_by: actor.reference, closed_by_actor: actor, closed_at: deps.clock.now().toISOString() },
      { kind: 'expression', expression: '#closed = :open', names: { '#closed': 'is_closed' }, values: { ':open': false } },
    );
    return toComment(updated);
  } catch (error) {
    // Closed by someone else in between: the first close stands.
    if (error instanceof ConditionFailedError) return toPayloadComment(await storedComment(deps, client, payloadReference, commentId));
    throw error;
  }
}

/** One payload's comments in the order raised; closed ones only when asked; none for a destroyed recording. */
export async function listPayloadComments(
  caller: TenantCaller,
  payloadReference: string,
  query: QueryOf<typeof payloadEndpoints, 'client.payloads.comments.list'>,
): Promise<Page<PayloadComment> | { count: number }> {
  const { deps, tenant: client } = caller;
  const payload = await readablePayload(caller, payloadReference);
  // A destroyed recording has no comments: any not removed yet are on their way out (retention's purge step).
  if (payload.payload_state === 'Destroyed') return query.result_type === 'total' ? { count: 0 } : { count: 0, data: [] };
  const list = keys.comment.listByPayload(client, payloadReference);
  const includeClosed = query.include_closed === true;
  return listPage(deps, {
    client,
    query: { ...list, sort: { beginsWith: keys.comment.sortPrefix } },
    filters: { comments: true, include_closed: includeClosed },
    page: query,
    keep: perItem(includeClosed ? undefined : (item) => readComment(item).is_closed !== true),
    toData: toComment,
  });
}

/** Filters of the tenant-wide comment list (`raised_by` matches exactly; `payload_types` may name the Calls and Messages groups). */
export type CommentListQuery = QueryOf<typeof payloadEndpoints, 'client.comments.list'>;

/**
 * Comments across the tenant, newest first, with the date range (raised_at) as a key condition. Payload type,
 * group, raiser, closed state and the caller's group and type restrictions filter the pages; a hidden comment is never
 * counted in a total either. A destroyed recording's comments are not listed, as its own list answers none: retention
 * removes them after the recording's own transaction (and keeps a held author's until the hold's release).
 */
export async function listComments(caller: TenantCaller, query: CommentListQuery): Promise<Page<PayloadComment> | { count: number }> {
  const { deps, tenant: client } = caller;
  const access = caller.payloadScope();
  const list = keys.comment.list(client);
  const wanted = query.payload_types === undefined ? undefined : expandPayloadTypes(query.payload_types);
  const types = access.types.filter((type) => wanted === undefined || wanted.includes(type));
  const includeClosed = query.include_closed === true;
  if (types.length === 0) return query.result_type === 'total' ? { count: 0 } : { count: 0, data: [] };
  const wantedComment = (comment: CommentItem) =>
    types.includes(comment.payload_type) &&
    (includeClosed || comment.is_closed !== true) &&
    (query.group === undefined || comment.group === query.group) &&
    (query.raised_by === undefined || comment.raised_by === query.raised_by);
  return listPage(deps, {
    client,
    query: { ...list, sort: { between: timeRangeOrAll(query.from, query.to) }, descending: true },
    filters: {
      from: query.from,
      to: query.to,
      types: [...types].sort().join(','),
      group: query.group,
      raised_by: query.raised_by,
      include_closed: includeClosed,
    },
    page: query,
    // Then the caller's group and type restrictions, the payload check itself (a hidden comment is never counted).
    keep: async (items) => {
      const candidates = items.map((item) => ({ item, comment: readComment(item) })).filter(({ comment }) => wantedComment(comment));
      const refusals = await Promise.all(candidates.map(({ comment }) => access.check({ payload_type: comment.payload_type, group: comment.group })));
      const allowed = candidates.filter((_, position) => refusals[position] === undefined);
      const destroyed = await destroyedRecordings(deps, client, allowed.map(({ comment }) => comment.payload_reference));
      return allowed.filter(({ comment }) => !destroyed.has(comment.payload_reference)).map(({ item }) => item);
    },
    toData: toComment,
  });
}

/** Which of these recordings are destroyed: one BatchGet for a page's recordings (a missing one is not destroyed). */
async function destroyedRecordings(deps: Deps, client: string, payloadReferences: readonly string[]): Promise<Set<string>> {
  const distinct = [...new Set(payloadReferences)];
  if (distinct.length === 0) return new Set();
  const items = await deps.table.batchGet(distinct.map((reference) => keys.payload.key(client, reference)));
  return new Set(items.map(readPayload).filter((payload) => payload.payload_state === 'Destroyed').map((payload) => payload.payload_reference));
}
