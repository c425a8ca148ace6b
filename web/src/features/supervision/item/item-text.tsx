import { Alert, Loader, Stack, Text } from '@mantine/core';
import { LEXICON_MESSAGE_TYPES } from '#shared/constants/supervision.ts';
import type { SupervisionHit, SupervisionItem } from '#shared/contract/entities/supervision.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useItemRecording } from '../api/get-item-recording.ts';
import { useItemText } from '../api/get-item-text.ts';
import { HighlightedText } from './highlighted-text.tsx';

const MESSAGE_TYPES: ReadonlySet<string> = new Set(LEXICON_MESSAGE_TYPES);

/** The match offsets of the item's lexicon hits in one field (a hit with no field is on a message's text). */
export function matchesIn(hits: readonly SupervisionHit[], field: 'text' | 'notes') {
  return hits.filter((hit) => hit.kind === 'Lexicon' && (hit.field ?? 'text') === field).flatMap((hit) => hit.matches);
}

/**
 * What the reviewer reads: a message's text, read through the audited view link (one "Viewed" record per opening),
 * and the notes of an interview, photo or video; each with the matched terms marked. A role that may not view
 * recordings is told so rather than shown an empty text.
 */
export function ItemText({ item }: { item: SupervisionItem }) {
  const isMessage = MESSAGE_TYPES.has(item.payload_type);
  const notesMatches = matchesIn(item.hits, 'notes');
  const canView = useCan('payloads:Play');
  const canRead = useCan('payloads:Read');
  const message = useItemText(item.item_reference, isMessage && canView.allowed);
  const recording = useItemRecording(item.item_reference, !isMessage && canRead.allowed);
  const notes = typeof recording.data?.meta?.payload_notes === 'string' ? recording.data.meta.payload_notes : undefined;

  return (
    <Stack gap="sm">
      {isMessage &&
        (!canView.allowed ? (
          <Alert variant="light" color="gray" title="The message's text is not open to you">
            {canView.reason}
          </Alert>
        ) : message.status === 'ready' && message.text !== undefined ? (
          <HighlightedText label="Message text" text={message.text} matches={matchesIn(item.hits, 'text')} />
        ) : message.status === 'failed' ? (
          <Alert variant="light" color="red" title="The text could not be read">
            {message.error?.message}
          </Alert>
        ) : (
          <Loader size="sm" aria-label="Loading the message" />
        ))}
      {!isMessage &&
        (!canRead.allowed ? (
          <Alert variant="light" color="gray" title="The recording's notes are not open to you">
            {canRead.reason}
          </Alert>
        ) : recording.isLoading ? (
          <Loader size="sm" aria-label="Loading the notes" />
        ) : notes !== undefined ? (
          <div>
            <Text size="sm" c="dimmed" mb={4}>
              Notes
            </Text>
            <HighlightedText label="Notes" text={notes} matches={notesMatches} />
          </div>
        ) : (
          <Text c="dimmed">{recording.error === null ? 'This recording has no notes.' : recording.error.message}</Text>
        ))}
    </Stack>
  );
}
