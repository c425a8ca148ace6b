import { AspectRatio, Badge, Button, Card, Center, Checkbox, Group, Image, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { LegalHoldBadge } from '../../../components/data/legal-hold-badge.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useViewLinks } from '../api/bulk-data-links.ts';
import { PAYLOAD_STATE_COLOURS, PAYLOAD_STATE_LABELS } from '../shared/labels.ts';
import { useAllowedAction } from './allowed-action.ts';
import { recorderOf, recordingTitle } from '../shared/recording-title.ts';
import { RecordingLink } from './links.tsx';
import type { Selection } from './use-selection.ts';

/** Only processed photos have a file to show. */
const hasImage = (row: Payload) => row.payload_state === 'Processed' || row.payload_state === 'Transferred';

/**
 * Photos as a grid. Processing keeps no smaller copy of a photo, so a preview IS the photo: it is shown only when the
 * user asks ("Show the photos"), through the data endpoint (`GET data`, action view), and each photo shown is one
 * "Viewed" record on its audit trail. Opening the list asks for nothing; a role that may not view photos is offered
 * no previews.
 */
export function PhotoGrid({ rows, selection }: { rows: readonly Payload[]; selection: Selection | undefined }) {
  const view = useAllowedAction('payloads:Play');
  const [shown, setShown] = useState(false);
  const { links, refused } = useViewLinks(
    rows.filter(hasImage).map((row) => row.payload_reference),
    view.allowed && shown,
  );
  return (
    <Stack gap="xs">
      {!view.allowed ? (
        <Text size="sm" c="dimmed">
          {view.reason} Previews are not shown.
        </Text>
      ) : (
        !shown && (
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={() => setShown(true)}>
              Show the photos
            </Button>
            <Text size="sm" c="dimmed">
              Each photo shown is recorded as viewed on its audit trail.
            </Text>
          </Group>
        )
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, md: 4, lg: 6 }} role="list" aria-label="Photos">
        {rows.map((row) => {
          const link = links.get(row.payload_reference);
          return (
            <Card key={row.payload_reference} withBorder padding="xs" role="listitem">
              <Card.Section>
                <AspectRatio ratio={4 / 3}>
                  {link !== undefined ? (
                    <Image src={link} alt={recordingTitle(row)} fit="cover" />
                  ) : (
                    <Center bg="var(--mantine-color-default-hover)">
                      <Text size="xs" c="dimmed" ta="center" px="xs">
                        {!hasImage(row)
                          ? 'No picture yet'
                          : !view.allowed || !shown
                            ? 'No preview'
                            : refused.has(row.payload_reference)
                              ? 'Not open to you'
                              : 'Loading preview…'}
                      </Text>
                    </Center>
                  )}
                </AspectRatio>
              </Card.Section>
              <Stack gap={4} mt="xs">
                <Group justify="space-between" wrap="nowrap" gap={4}>
                  <Text size="sm" fw={500}>
                    <RecordingLink type={row.payload_type} reference={row.payload_reference} title={recordingTitle(row)}>
                      {formatDateTime(row.payload_time)}
                    </RecordingLink>
                  </Text>
                  {selection !== undefined && (
                    <Checkbox
                      aria-label={`Select ${recordingTitle(row)}`}
                      checked={selection.isSelected(row.payload_reference)}
                      disabled={!selection.isSelected(row.payload_reference) && selection.isFull}
                      onChange={() => selection.toggle(row.payload_reference)}
                    />
                  )}
                </Group>
                <Text size="xs" c="dimmed" truncate title={recorderOf(row)}>
                  {recorderOf(row)}
                </Text>
                <Group gap={4}>
                  {!hasImage(row) && (
                    <Badge size="xs" variant="light" color={PAYLOAD_STATE_COLOURS[row.payload_state]}>
                      {PAYLOAD_STATE_LABELS[row.payload_state]}
                    </Badge>
                  )}
                  <LegalHoldBadge heldBy={row.held_by} />
                </Group>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
