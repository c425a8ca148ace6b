import { Alert, Loader, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { PayloadComment } from '#shared/contract/entities/comments.ts';
import { useCan } from '../../../../lib/use-can.ts';
import { useCreatePayloadComment } from '../../api/create-payload-comment.ts';
import type { Span } from '../spans.ts';
import { CommentCard, type CommentHistorySlot } from './comment-card.tsx';
import { CommentForm, type CommentDraft } from './comment-form.tsx';

interface CommentsPanelProps {
  payloadReference: string;
  comments: readonly PayloadComment[];
  loading: boolean;
  /** The recording has a timeline (calls, interviews, videos): comments may carry spans. */
  spanned: boolean;
  selectedId?: string;
  /** The span last selected on the timeline (a new comment, or the one being edited, takes it). */
  selectedSpan?: Span;
  playhead?: () => number;
  onPlaySpan?: (span: Span) => void;
  /** Why the recording takes no more comments (its content destroyed): no form, no Edit or Close, this said instead. */
  closedReason?: string;
  /** What opens an edited comment's earlier versions (composed by the route). */
  history?: CommentHistorySlot;
}

/**
 * A recording's open comments, numbered as the timeline labels them, and a form to add one. Adding, editing and
 * closing are offered as far as the user's role allows, and only while the recording takes comments; a reviewer
 * reads them only.
 */
export function CommentsPanel({ payloadReference, comments, loading, spanned, selectedId, selectedSpan, playhead, onPlaySpan, closedReason, history }: CommentsPanelProps) {
  const canCreate = useCan('comments:Create');
  const create = useCreatePayloadComment();
  // A new key empties the form after a comment was added.
  const [formKey, setFormKey] = useState(0);

  const add = (draft: CommentDraft) =>
    create.mutate(
      { params: { payload_reference: payloadReference }, body: { message: draft.message, ...(draft.span === undefined ? {} : { comment_duration: draft.span }) } },
      { onSuccess: () => setFormKey((key) => key + 1) },
    );

  return (
    <Stack gap="sm">
      {loading ? (
        <Loader size="sm" aria-label="Loading comments" />
      ) : comments.length === 0 ? (
        <Text c="dimmed">No comments yet.</Text>
      ) : (
        <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Comments">
          {comments.map((comment, index) => (
            <CommentCard
              key={comment.comment_id}
              comment={comment}
              number={index + 1}
              spanned={spanned}
              selected={comment.comment_id === selectedId}
              readOnly={closedReason !== undefined}
              {...(history === undefined ? {} : { history })}
              {...(selectedSpan === undefined ? {} : { selectedSpan })}
              {...(playhead === undefined ? {} : { playhead })}
              {...(onPlaySpan === undefined ? {} : { onPlaySpan })}
            />
          ))}
        </Stack>
      )}
      {closedReason !== undefined ? (
        <Alert variant="light" color="gray" title="This recording takes no more comments">
          {closedReason}
        </Alert>
      ) : canCreate.allowed ? (
        <CommentForm
          key={formKey}
          label="New comment"
          submitLabel="Add comment"
          initial={{ message: '', span: selectedSpan }}
          spanned={spanned}
          {...(selectedSpan === undefined ? {} : { selectedSpan })}
          {...(playhead === undefined ? {} : { playhead })}
          pending={create.isPending}
          error={create.error}
          onSubmit={add}
        />
      ) : (
        <Alert variant="light" color="gray" title="Commenting is not open to you">
          {canCreate.reason}
        </Alert>
      )}
    </Stack>
  );
}
