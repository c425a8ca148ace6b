import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { PayloadComment } from '#shared/contract/entities/comments.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { RecordHistory } from './record-history.tsx';

/** Reading a recording's comments is what its comments' history needs besides the history read. */
const listPayloadComments = endpointOf(payloadEndpoints, 'client.payloads.comments.list');

/** A comment's reference in `GET history/comment/{reference}`: the recording's and the comment's, joined by `~`. */
export function commentHistoryReference(comment: Pick<PayloadComment, 'payload_reference' | 'comment_id'>): string {
  return `${comment.payload_reference}~${comment.comment_id}`;
}

/** "History" on one of a recording's comments (the route gives it to the comments list as its history slot). */
export function commentHistory(comment: PayloadComment, number: number) {
  return (
    <RecordHistory
      entity="comment"
      reference={commentHistoryReference(comment)}
      readAction={listPayloadComments.action}
      current={comment}
      name={`comment ${number}`}
      size="compact-sm"
    />
  );
}
