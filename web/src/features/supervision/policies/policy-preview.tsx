import { Alert, Anchor, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { SupervisionHit, SupervisionPolicyRequest } from '#shared/contract/entities/supervision.ts';
import type { z } from 'zod';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { ErrorLines, errorLinesOf } from '../../../components/data/error-lines.tsx';
import { DateRangeFilter } from '../../../components/filters/date-range-filter.tsx';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { PAYLOAD_TYPE_LABELS } from '../../../lib/labels.ts';
import { recordingPath } from '../../../lib/recording-screen.ts';
import { previewPolicy, usePreviewPolicy } from '../api/preview-policy.ts';

/** A hit in a few words: the term and where it matched, or the sampling value that chose the recording. */
function hitWords(hit: SupervisionHit): string {
  if (hit.kind === 'Sampling') return `sampled (value ${hit.sample_value === undefined ? '—' : hit.sample_value.toFixed(6)}${hit.is_minimum_top_up === true ? ', daily minimum' : ''})`;
  const where = hit.field === 'notes' ? ' in the notes' : '';
  return `“${hit.term ?? ''}”${where} ×${hit.matches.length}`;
}

/**
 * Preview: the policy as drafted (not saved) over a chosen past period — how many recordings were read, how many
 * items it would have raised, whether the period held more than a preview reads, and up to ten examples.
 */
export function PolicyPreview({ reference, body, blocked }: {
  reference: string;
  /** The draft's request body; undefined while the draft has problems. */
  body: z.input<typeof SupervisionPolicyRequest> | undefined;
  /** Why a preview cannot be asked for now (the draft's problems), if so. */
  blocked: string | undefined;
}) {
  const [period, setPeriod] = useState<{ from: string | undefined; to: string | undefined }>({ from: undefined, to: undefined });
  const preview = usePreviewPolicy();
  const missing = period.from === undefined || period.to === undefined ? 'Choose the period to preview.' : undefined;
  const reason = blocked ?? missing;
  const run = () => {
    if (body === undefined || period.from === undefined || period.to === undefined) return;
    preview.mutate({ params: { policy_reference: reference }, body: { policy: body as SupervisionPolicyRequest, from: period.from, to: period.to } });
  };
  const answer = preview.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="policy-preview-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="policy-preview-title">
          Preview
        </Title>
        <Text size="sm" c="dimmed">
          How many items this policy, as drafted, would have raised over a past period. Nothing is saved or raised.
        </Text>
        <Group align="flex-end">
          <DateRangeFilter from={period.from} to={period.to} onChange={setPeriod} fromLabel="Preview from" toLabel="Preview to" />
          <PermittedButton action={previewPolicy.action} variant="default" onClick={run} disabled={reason !== undefined} loading={preview.isPending} title={reason}>
            Preview
          </PermittedButton>
        </Group>
        {reason !== undefined && (
          <Text size="xs" c="dimmed">
            {reason}
          </Text>
        )}
        <ErrorLines title="The server refused the preview" lines={preview.error ? errorLinesOf(preview.error) : []} />
        {answer !== undefined && (
          <Stack gap="xs" aria-live="polite">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Text>
                <strong>{formatNumber(answer.scanned)}</strong> {answer.scanned === 1 ? 'recording' : 'recordings'} read
              </Text>
              <Text>
                <strong>{formatNumber(answer.would_raise)}</strong> would have raised an item
              </Text>
            </SimpleGrid>
            {answer.is_partial && (
              <Alert variant="default" title="Partial preview">
                The period holds more recordings than a preview reads: the counts are of the {formatNumber(answer.scanned)} read first. Apply the saved policy to
                the period to raise every item.
              </Alert>
            )}
            {answer.examples.length > 0 && (
              <Table aria-label="Examples the policy would raise" striped verticalSpacing={4}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Recording</Table.Th>
                    <Table.Th scope="col">Time</Table.Th>
                    <Table.Th scope="col">Device user</Table.Th>
                    <Table.Th scope="col">Hits</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {answer.examples.map((example) => (
                    <Table.Tr key={example.payload_reference}>
                      <Table.Td>
                        {/* A portal path built from the payload type; the router treats it as any in-app path. */}
                        <Anchor component={Link} to={recordingPath(example.payload_type, example.payload_reference) as '/'} underline="always">
                          {PAYLOAD_TYPE_LABELS[example.payload_type]} {example.payload_reference}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{formatDateTime(example.payload_time)}</Table.Td>
                      <Table.Td>{example.device_user_reference ?? '—'}</Table.Td>
                      <Table.Td>{example.hits.map(hitWords).join('; ')}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
