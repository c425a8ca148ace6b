import { Alert, Anchor, Badge, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { LegalHoldBadge } from '../../../components/data/legal-hold-badge.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import { useViewLinks } from '../api/bulk-data-links.ts';
import { payloadQueryOptions } from '../api/get-payload.ts';
import { useSmsThread } from '../api/get-sms-thread.ts';
import { PAYLOAD_TYPE_LABELS } from '../shared/labels.ts';
import { DIRECTION_LABELS, partiesOf } from './parties.ts';
import { useMessageTexts } from './use-message-texts.ts';

/**
 * A message's whole thread as a conversation, oldest first: incoming on the left, outgoing on the right, each with its
 * time and parties, SMS and RCS text and MMS pictures inline, the message this page is about outlined. The texts and
 * pictures come through one bulk data call (action view) per opening: each message shown is ONE "Viewed" record on
 * its audit trail, however often the page renders or refetches.
 */
export function MessageThread({ payload }: { payload: Payload }) {
  const { session } = useSession();
  const canRead = useCan('payloads:Play');
  const threadId = typeof payload.meta?.thread_id === 'string' ? payload.meta.thread_id : undefined;
  const thread = useSmsThread(payload.device_reference, threadId);
  const messages = threadId === undefined ? [payload] : (thread.data !== undefined && 'data' in thread.data ? thread.data.data : []);
  // Each message's meta (direction, parties): the thread list carries none.
  const metas = useQueries({
    queries: messages.map((message) => payloadQueryOptions(session, message.payload_reference)),
    combine: (results) => new Map(messages.map((message, index) => [message.payload_reference, results[index]?.data ?? (message.payload_reference === payload.payload_reference ? payload : undefined)])),
  });
  // Asked once the conversation is known (not for the lone message first shown while its thread loads).
  const links = useViewLinks(
    messages.map((message) => message.payload_reference),
    canRead.allowed && !thread.isLoading,
  );
  const texts = useMessageTexts(
    messages.filter((message) => message.payload_type !== 'MMS').map((message) => ({ reference: message.payload_reference, url: links.links.get(message.payload_reference) })),
  );

  if (thread.isLoading) return <Loader size="sm" aria-label="Loading the conversation" />;
  return (
    <Stack gap="xs">
      {!canRead.allowed && (
        <Alert variant="light" color="gray" title="Message contents are not open to you">
          {canRead.reason}
        </Alert>
      )}
      <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Conversation">
        {messages.map((message) => {
          const full = metas.get(message.payload_reference);
          const direction = typeof full?.meta?.direction === 'string' ? (full.meta.direction as keyof typeof DIRECTION_LABELS) : undefined;
          const outgoing = direction === 'O';
          const parties = partiesOf(full?.meta);
          const url = links.links.get(message.payload_reference);
          const text = texts.get(message.payload_reference);
          const current = message.payload_reference === payload.payload_reference;
          return (
            <Group component="li" key={message.payload_reference} justify={outgoing ? 'flex-end' : 'flex-start'}>
              <Paper
                withBorder
                p="sm"
                maw="75%"
                bg={outgoing ? 'var(--mantine-primary-color-light)' : undefined}
                aria-current={current ? 'true' : undefined}
                style={current ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : undefined}
              >
                <Group gap="xs" mb={4}>
                  <Badge variant="outline" tt="none" miw="max-content">
                    {PAYLOAD_TYPE_LABELS[message.payload_type]}
                  </Badge>
                  <Text size="xs" c="dimmed">
                    {direction === undefined ? '' : `${DIRECTION_LABELS[direction]} · `}
                    {parties.map((party) => (party.contactName ? `${party.contactName} (${party.phoneNumber})` : party.phoneNumber)).join(', ')}
                    {' · '}
                    {formatDateTime(String(full?.meta?.payload_time ?? message.uploaded_at ?? ''))}
                  </Text>
                  <LegalHoldBadge heldBy={full?.held_by ?? message.held_by} />
                </Group>
                {message.payload_type === 'MMS' ? (
                  url === undefined ? (
                    canRead.allowed && <Text c="dimmed">No attachment to show.</Text>
                  ) : (
                    <Anchor href={url} target="_blank" rel="noreferrer">
                      <img src={url} alt={`Picture sent in this MMS${parties[0] ? ` with ${parties[0].phoneNumber}` : ''}`} style={{ maxWidth: 280, maxHeight: 220, display: 'block', borderRadius: 4 }} />
                    </Anchor>
                  )
                ) : text?.isLoading ? (
                  <Loader size="xs" aria-label="Loading the message" />
                ) : text?.data !== undefined ? (
                  <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{text.data}</Text>
                ) : (
                  canRead.allowed && <Text c="dimmed">{text?.isError ? 'The text could not be fetched.' : 'No text to show.'}</Text>
                )}
                {current && (
                  <Text size="xs" c="dimmed" mt={4}>
                    This message
                  </Text>
                )}
              </Paper>
            </Group>
          );
        })}
      </Stack>
    </Stack>
  );
}
