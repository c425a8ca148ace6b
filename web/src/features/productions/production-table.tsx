import { Badge, Button, Progress, Stack, Table, Text } from '@mantine/core';
import type { Production } from '#shared/contract/entities/productions.ts';
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

/** The production log's rows: what, when, by whom, to whom, which control numbers, progress and the download. */
export function ProductionTable({ productions, label }: { productions: readonly Production[]; label: string }) {
  const download = useDownloadProduction();
  const canDownload = useCan('productions:Download');
  const open = (production: Production) =>
    download.mutate({ params: { production_reference: production.production_reference } }, { onSuccess: (link) => window.location.assign(link.url) });
  if (productions.length === 0) return <Text c="dimmed">No productions yet.</Text>;
  return (
    <Stack gap="xs">
      {download.isError && <ErrorLines title="The download link was not made" lines={errorLinesOf(download.error)} />}
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
