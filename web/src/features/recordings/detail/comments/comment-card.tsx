import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { PayloadComment } from '#shared/contract/entities/comments.ts';
import { PermittedButton } from '../../../../components/access/permitted-button.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { useClosePayloadComment } from '../../api/close-payload-comment.ts';
import { useUpdatePayloadComment } from '../../api/update-payload-comment.ts';
import { describeSpan, type Span } from '../spans.ts';
import { CommentForm, type CommentDraft } from './comment-form.tsx';
import { actorName } from '../../../../lib/actor-name.ts';

interface CommentCardProps {
  comment: PayloadComment;
  /** Its number on the timeline (the span's label). */
  number: number;
  spanned: boolean;
  selected: boolean;
  selectedSpan?: Span;
  playhead?: () => number;
  onPlaySpan?: (span: Span) => void;
  /** Shown without Edit and Close (the recording takes no changes to its comments). */
  readOnly?: boolean;
  /** What opens an edited comment's earlier versions (composed by the route: features/history). */
  history?: CommentHistorySlot;
}

/** A control showing one comment's history, given the comment and its number on the timeline. */
export type CommentHistorySlot = (comment: PayloadComment, number: number) => ReactNode;

/** One comment: its text, who and when, its span (press to play it), and Edit and Close as the role allows. */
export function CommentCard({ comment, number, spanned, selected, selectedSpan, playhead, onPlaySpan, readOnly = false, history }: CommentCardProps) {
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-close'>('view');
  const update = useUpdatePayloadComment();
  const close = useClosePayloadComment();
  const params = { payload_reference: comment.payload_reference, comment_id: comment.comment_id };
  const span = comment.comment_duration;
  // Only an edited comment has earlier versions to show.
  const versions = comment.comment_version > 1 ? history?.(comment, number) : undefined;

  const save = (draft: CommentDraft) =>
    update.mutate(
      { params, body: { message: draft.message, ...(draft.span === undefined ? {} : { comment_duration: draft.span }) } },
      { onSuccess: () => setMode('view') },
    );

  return (
    <Paper
      withBorder
      p="sm"
      component="li"
      aria-label={`Comment ${number}`}
      style={selected ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : undefined}
    >
      {mode === 'edit' ? (
        <CommentForm
          label={`Edit comment ${number}`}
          submitLabel="Save comment"
          initial={{ message: comment.comment_body, span }}
          spanned={spanned}
          {...(selectedSpan === undefined ? {} : { selectedSpan })}
          {...(playhead === undefined ? {} : { playhead })}
          pending={update.isPending}
          error={update.error}
          onSubmit={save}
          onCancel={() => setMode('view')}
        />
      ) : (
        <Stack gap={6}>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Group gap="xs">
              <Badge variant="light" tt="none" miw="max-content">
                {number}
              </Badge>
              {span !== undefined &&
                (onPlaySpan === undefined ? (
                  <Text size="sm">{describeSpan(span)}</Text>
                ) : (
                  <Button size="compact-sm" variant="light" onClick={() => onPlaySpan(span)} aria-label={`Play ${describeSpan(span)} (comment ${number})`}>
                    ▶ {describeSpan(span)}
                  </Button>
                ))}
            </Group>
            <Text size="xs" c="dimmed">
              {actorName(comment.raised_by_actor, comment.raised_by)}, {formatDateTime(comment.raised_at)}
              {comment.comment_version > 1 && ` · edited (version ${comment.comment_version}) by ${comment.updated_by === undefined ? 'unknown' : actorName(comment.updated_by_actor, comment.updated_by)}, ${formatDateTime(comment.updated_at)}`}
            </Text>
          </Group>
          <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{comment.comment_body}</Text>
          {mode === 'confirm-close' ? (
            <Group gap="xs">
              <Text size="sm">Close this comment? It stays in the record, marked closed.</Text>
              <Button size="compact-sm" color="red" loading={close.isPending} onClick={() => close.mutate({ params }, { onSuccess: () => setMode('view') })}>
                Close comment
              </Button>
              <Button size="compact-sm" variant="default" onClick={() => setMode('view')}>
                Keep it
              </Button>
            </Group>
          ) : readOnly ? (
            (versions ?? null)
          ) : (
            <Group gap="xs">
              <PermittedButton action="comments:Update" size="compact-sm" variant="default" onClick={() => setMode('edit')} aria-label={`Edit comment ${number}`}>
                Edit
              </PermittedButton>
              <PermittedButton action="comments:Delete" size="compact-sm" variant="default" onClick={() => setMode('confirm-close')} aria-label={`Close comment ${number}`}>
                Close
              </PermittedButton>
              {versions}
            </Group>
          )}
        </Stack>
      )}
    </Paper>
  );
}
