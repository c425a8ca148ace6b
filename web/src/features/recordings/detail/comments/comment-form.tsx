import { Button, Checkbox, Group, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { FormErrorSummary, formErrorsFor } from '../../../../components/forms/form-errors.tsx';
import { describeSpan, toTenths, type Span } from '../spans.ts';

/** What a comment form sends: the text and, for a recording with a timeline, the span it is about (or none). */
export interface CommentDraft {
  message: string;
  span: Span | undefined;
}

interface CommentFormProps {
  /** Labels the form's fields apart from other forms on the page ("New comment", "Edit comment"). */
  label: string;
  submitLabel: string;
  initial: CommentDraft;
  /** The recording has a timeline: the comment may be about a span of it. */
  spanned: boolean;
  /** The span selected on the timeline, which the form follows while it is shown. */
  selectedSpan?: Span;
  /** The playhead, for "Start at the playhead". */
  playhead?: () => number;
  pending: boolean;
  error: unknown;
  onSubmit: (draft: CommentDraft) => void;
  onCancel?: () => void;
}

/**
 * A comment's text and, where the recording has a timeline, its span to a tenth of a second: chosen by dragging on the
 * waveform (the selection fills the fields) or typed, so a keyboard user can comment on a span too.
 */
export function CommentForm({ label, submitLabel, initial, spanned, selectedSpan, playhead, pending, error, onSubmit, onCancel }: CommentFormProps) {
  const [message, setMessage] = useState(initial.message);
  const [span, setSpan] = useState<Span | undefined>(initial.span);
  const [followed, setFollowed] = useState<Span | undefined>(selectedSpan);
  // A new selection on the timeline replaces the span being typed (adjusting state while rendering, not in an effect).
  if (selectedSpan !== followed) {
    setFollowed(selectedSpan);
    if (selectedSpan !== undefined) setSpan(selectedSpan);
  }
  const errors = formErrorsFor({
    error,
    paths: { message: 'body.message', start: 'body.comment_duration.start_time', length: 'body.comment_duration.duration' },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ message: message.trim(), span: spanned ? span : undefined });
  };

  return (
    <form onSubmit={submit} aria-label={label}>
      <Stack gap="xs">
        <FormErrorSummary lines={errors.general} />
        <Textarea
          label={`${label}: text`}
          required
          autosize
          minRows={2}
          maxLength={4000}
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
          error={errors.field.message}
        />
        {spanned && (
          <>
            <Checkbox
              label="About a part of the recording"
              checked={span !== undefined}
              onChange={(event) => setSpan(event.currentTarget.checked ? (selectedSpan ?? { start_time: toTenths(playhead?.() ?? 0), duration: 5 }) : undefined)}
            />
            {span !== undefined && (
              <Group align="flex-end" gap="xs">
                <NumberInput
                  label="Starts at (seconds)"
                  min={0}
                  step={0.1}
                  decimalScale={1}
                  w={150}
                  value={span.start_time}
                  onChange={(value) => setSpan({ ...span, start_time: Math.max(0, toTenths(Number(value) || 0)) })}
                  error={errors.field.start}
                />
                <NumberInput
                  label="Lasts (seconds)"
                  min={0.1}
                  step={0.1}
                  decimalScale={1}
                  w={150}
                  value={span.duration}
                  onChange={(value) => setSpan({ ...span, duration: Math.max(0.1, toTenths(Number(value) || 0.1)) })}
                  error={errors.field.length}
                />
                {playhead !== undefined && (
                  <Button variant="default" onClick={() => setSpan({ ...span, start_time: toTenths(playhead()) })}>
                    Start at the playhead
                  </Button>
                )}
                <Text size="sm" c="dimmed" pb={8}>
                  {describeSpan(span)}
                </Text>
              </Group>
            )}
          </>
        )}
        <Group gap="xs">
          <Button type="submit" loading={pending} disabled={message.trim() === ''}>
            {submitLabel}
          </Button>
          {onCancel !== undefined && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
