import { Alert, Anchor, Badge, Button, List, Progress, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import type * as z from 'zod';
import type { Production, ProductionDownload } from '#shared/contract/entities/productions.ts';
import { ErrorLines, errorLinesOf } from '../../components/data/error-lines.tsx';
import { actorName } from '../../lib/actor-name.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useCan } from '../../lib/use-can.ts';
import { productionRunning, useDownloadProduction } from './api/productions-api.ts';

const STATE_COLOURS: Record<Production['production_state'], string> = { Pending: 'gray', InProgress: 'blue', Succeeded: 'green', Failed: 'red' };
const KIND_WORDS: Record<Production['production_kind'], string> = { Case: 'Case', Search: 'Search', ClientCopy: 'Client copy' };

/** Where it went, in words: a download link, or the transfer configuration's target. */
export const destinationWords = (production: Production) =>
  production.destination.type === 'Download' ? 'Download link' : `Transfer ${production.destination.transfer_config_reference}`;

/** The control numbers it gave, as a range. */
export const controlRange = (production: Production) =>
  production.control_first === undefined ? '' : production.control_first === production.control_last ? production.control_first : `${production.control_first} – ${production.control_last}`;

/** Documents written of the total, as a share for the progress bar. */
export function productionShare(production: Production): number {
  if (production.production_state === 'Succeeded') return 100;
  const total = production.documents_total ?? 0;
  return total === 0 ? 0 : Math.min(100, Math.round((production.documents_done / total) * 100));
}

/**
 * The links of a production delivered in parts, each named by its place and file ("Part 2 of 3: …_part002.zip"); none
 * for a production in one archive (its one link is followed at once).
 */
export function partLinks(link: z.infer<typeof ProductionDownload>): { url: string; label: string }[] {
  const parts = link.parts ?? [];
  if (parts.length < 2) return [];
  return parts.map((part, index) => ({ url: part.url, label: `Part ${index + 1} of ${parts.length}: ${part.file_name}` }));
}

/** The production log's rows: what, when, by whom, to whom, which control numbers, progress and the download. */
export function ProductionTable({ productions, label }: { productions: readonly Production[]; label: string }) {
  const download = useDownloadProduction();
  const canDownload = useCan('productions:Download');
  // A production in parts offers every part's link (each lives 15 minutes); one archive is downloaded at once.
  const [parts, setParts] = useState<{ url: string; label: string }[]>([]);
  const open = (production: Production) =>
    download.mutate(
      { params: { production_reference: production.production_reference } },
      {
        onSuccess: (link) => {
          const links = partLinks(link);
          setParts(links);
          if (links.length === 0) window.location.assign(link.url);
        },
      },
    );
  if (productions.length === 0) return <Text c="dimmed">No productions yet.</Text>;
  return (
    <Stack gap="xs">
      {download.isError && <ErrorLines title="The download link was not made" lines={errorLinesOf(download.error)} />}
      {parts.length > 0 && (
        <Alert color="blue" title="The production is in parts: download each">
          <List size="sm">
            {parts.map((part) => (
              <List.Item key={part.url}>
                <Anchor href={part.url}>{part.label}</Anchor>
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Table aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Started</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th>By</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th>Control numbers</Table.Th>
            <Table.Th>Progress</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {productions.map((production) => {
            const running = productionRunning(production);
            const words = `${formatNumber(production.documents_done)} of ${formatNumber(production.documents_total ?? 0)} documents`;
            return (
              <Table.Tr key={production.production_reference}>
                <Table.Td>{formatDateTime(production.created_at)}</Table.Td>
                <Table.Td>{KIND_WORDS[production.production_kind]}</Table.Td>
                <Table.Td>{actorName(production.created_by_actor, production.created_by)}</Table.Td>
                <Table.Td>{destinationWords(production)}</Table.Td>
                <Table.Td>{controlRange(production)}</Table.Td>
                <Table.Td miw={180}>
                  <Badge color={STATE_COLOURS[production.production_state]} variant="light" tt="none" mb={4}>
                    {production.production_state}
                  </Badge>
                  <Progress value={productionShare(production)} striped={running} animated={running} aria-label={`Production progress: ${words}`} />
                  <Text size="xs">{words}</Text>
                  {production.error_message !== undefined && (
                    <Text size="xs" c="red">
                      {production.error_message}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {production.production_state === 'Succeeded' && production.destination.type === 'Download' && canDownload.allowed && (
                    <Button size="xs" variant="default" loading={download.isPending} onClick={() => open(production)}>
                      Download
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
