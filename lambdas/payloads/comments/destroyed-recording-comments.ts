import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem, TransactOperation } from '#core/ports/table-store.ts';
import { readComment } from '#core/store/entities/comment.ts';
import { readLegalHold } from '#core/store/entities/legal-hold.ts';
import { readPortalUser } from '#core/store/entities/portal-user.ts';
import { keys } from '#core/store/keys.ts';
import { eachPage, readAll } from '#core/store/paging.ts';

/**
 * A destroyed recording's comments go with its content (docs/decisions.md "Retention job", "What a destroyed recording
 * keeps"): they are people's words about the conversation. A recording may have more comments than one transaction
 * holds, so they are removed after the disposal's transaction, by the step that removes the recording's objects
 * (retention/dispose.ts `purgeObjects`), a page at a time and a bounded number of pages per call; its `PURGE` marker
 * stays until none is left, so a run cut short, or a recording with more comments than one call removes, goes on in
 * the next run.
 *
 * A comment whose author is under an active legal hold stays (a hold on a portal user covers what they wrote) until
 * that hold is released; the marker stays meanwhile. The payload's own audit items (plays, receipts, transfers) are
 * evidence and stay.
 */

type CommentsDependencies = Pick<Dependencies, 'table'>;

/** How much one call removes: `page` comments a Query and a transaction, at most `pages` pages. */
export interface CommentRemovalLimits {
  page: number;
  pages: number;
}

/** A page is one transaction of deletions (DynamoDB's bound is 100 operations). */
export const COMMENT_REMOVAL_LIMITS: CommentRemovalLimits = { page: 100, pages: 10 };

/** Done: no comment left. More: the call stopped at its bound. Held: what is left is kept by a legal hold. */
export type CommentRemoval = { removed: number; left: 'none' | 'more' | 'held' };

/**
 * The names a held portal user's comments carry: `raised_by` is the e-mail the token carried, else the reference, so
 * both count (as the hold's coverage counts them). Read once per call, and only for a recording that has comments.
 */
async function heldAuthors(deps: CommentsDependencies, client: string): Promise<Set<string>> {
  const holds = (await readAll(deps.table, keys.legalHold.list(client, 'PortalUser'))).map(readLegalHold).filter((hold) => hold.is_active);
  const users = holds.length === 0 ? [] : await deps.table.batchGet(holds.map((hold) => keys.portalUser.item(client, hold.target)));
  const emails = users.flatMap((user) => readPortalUser(user).email ?? []);
  return new Set([...holds.map((hold) => hold.target), ...emails]);
}

/** Removes the versions a comment's changes kept (in its recording's partition: keys.recordVersion). */
async function removeVersions(deps: CommentsDependencies, comment: { pk: string; sk: string }): Promise<void> {
  const versions = keys.recordVersion.listOf(comment);
  for await (const page of eachPage(deps.table, { partition: versions.partition, sort: versions.sort, consistent: true }, 100)) {
    if (page.length > 0) await deps.table.transactWrite(page.map((item) => ({ kind: 'delete', key: { pk: item.pk, sk: item.sk } })));
  }
}

/** Removes the comments of a destroyed recording, as far as one call goes (see the module note). */
export async function removeDestroyedRecordingComments(
  deps: CommentsDependencies,
  client: string,
  payloadReference: string,
  limits: CommentRemovalLimits = COMMENT_REMOVAL_LIMITS,
): Promise<CommentRemoval> {
  const comments = { ...keys.comment.listByPayload(client, payloadReference), sort: { beginsWith: keys.comment.sortPrefix } };
  let held: Set<string> | undefined;
  let kept = 0;
  let removed = 0;
  let startKey: Record<string, string> | undefined;
  for (let page = 0; page < limits.pages; page += 1) {
    const read = await deps.table.query({ ...comments, limit: limits.page, consistent: true, ...(startKey ? { startKey } : {}) });
    if (read.items.length > 0) held ??= await heldAuthors(deps, client);
    const authors = held ?? new Set<string>();
    const isHeld = (item: TableItem) => authors.has(readComment(item).raised_by);
    const deletions: TransactOperation[] = read.items.filter((item) => !isHeld(item)).map((item) => ({ kind: 'delete', key: { pk: item.pk, sk: item.sk } }));
    // A comment's earlier versions (its earlier wordings) go before it, so none outlives its comment.
    for (const item of read.items.filter((comment) => !isHeld(comment))) await removeVersions(deps, item);
    if (deletions.length > 0) await deps.table.transactWrite(deletions);
    removed += deletions.length;
    kept += read.items.length - deletions.length;
    startKey = read.lastKey;
    if (startKey === undefined) return { removed, left: kept > 0 ? 'held' : 'none' };
  }
  return { removed, left: 'more' };
}
