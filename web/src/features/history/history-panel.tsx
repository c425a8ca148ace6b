import { Alert, Badge, Button, Group, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { RecordVersion, VersionedEntity } from '#shared/contract/entities/record-versions.ts';
import { ErrorLines, errorLinesOf } from '../../components/data/error-lines.tsx';
import { actorName } from '../../lib/actor-name.ts';
import { ApiError } from '../../lib/api-error.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useRecordHistory } from './api/list-history.ts';
import { comparableRecord, compareRecords, withSecretsSettled } from './record-diff.ts';
import { VersionComparison } from './version-comparison.tsx';

export interface HistoryPanelProps {
  entity: VersionedEntity;
  /** The record's reference as the history endpoint names it (a comment: `<payload_reference>~<comment_id>`). */
  reference: string;
  /** The record as the screen shows it now (its API answer), to compare the newest version with. */
  current?: Readonly<Record<string, unknown>> | undefined;
}

/** One side of the comparison: a version (its position in the list, newest first) or the record now. */
type Side = `v${number}` | 'now';

const CHANGE_WORDS: Record<RecordVersion['change'], string> = { updated: 'Updated', deleted: 'Deleted' };

/** Who made the change that ended this version, named as every screen names people. */
const replacedBy = (version: RecordVersion) => actorName(version.replaced_by_actor, version.replaced_by);
const indexOf = (side: Side) => (side === 'now' ? -1 : Number(side.slice(1)));

/**
 * A record's history: its earlier versions newest first (who replaced each, when, and whether it was updated or
 * deleted; "Show older" pages on), and two states side by side with their differences marked. It opens on the newest
 * change: the last version against the record now; "Compare" on a row shows what that change did (the version against
 * the one that replaced it), and any two can be chosen.
 */
export default function HistoryPanel({ entity, reference, current }: HistoryPanelProps) {
  const history = useRecordHistory(entity, reference, true);
  const versions = history.items;
  const [pair, setPair] = useState<{ before: Side; after: Side }>({ before: 'v0', after: 'now' });

  // The record now: none after a deletion (the newest version says so), else what the screen shows.
  const deletedNow = versions[0]?.change === 'deleted';
  const now = deletedNow || current === undefined ? undefined : comparableRecord(entity, current);
  const recordOf = (side: Side) => {
    const index = indexOf(side);
    if (index < 0) return now;
    const version = versions[index];
    return version === undefined ? undefined : comparableRecord(entity, version.record);
  };
  const titleOf = (side: Side) => {
    const index = indexOf(side);
    if (index < 0) return deletedNow ? 'Now (deleted)' : 'Now';
    const version = versions[index];
    return version === undefined ? 'Version' : `Until ${formatDateTime(version.replaced_at)}`;
  };
  const options = [
    ...(current === undefined && !deletedNow ? [] : [{ value: 'now', label: titleOf('now') }]),
    ...versions.map((version, index) => ({ value: `v${index}`, label: `Until ${formatDateTime(version.replaced_at)} (changed by ${replacedBy(version)})` })),
  ];
  // The versions whose replacement lies between the two sides (the record now is after every version).
  const [newer, older] = [indexOf(pair.before), indexOf(pair.after)].sort((a, b) => a - b) as [number, number];
  const between = versions.slice(newer + 1, older + 1).map((version) => version.record);
  const rows = withSecretsSettled(compareRecords(recordOf(pair.before), recordOf(pair.after), entity), between);

  if (history.isLoading) return <Loader size="sm" aria-label="Loading the history" />;
  // A record never stored (a policy still at its defaults) has no versions: the server answers it as not found.
  const neverStored = history.error instanceof ApiError && history.error.status === 404;
  if (history.error !== null && !neverStored && versions.length === 0) return <ErrorLines title="The history could not be loaded" lines={errorLinesOf(history.error)} />;
  if (versions.length === 0) {
    return <Text c="dimmed">No earlier versions: this record has not been changed since it was created (or since versions were first kept).</Text>;
  }
  // The record now is known when the screen gave it, or when the newest version says it was deleted.
  const available = (side: Side) => (side === 'now' ? current !== undefined || deletedNow : versions[indexOf(side)] !== undefined);

  return (
    <Stack gap="md">
      <Table aria-label="Versions" verticalSpacing={6} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Version until</Table.Th>
            <Table.Th>Changed by</Table.Th>
            <Table.Th>Change</Table.Th>
            <Table.Th>Compare</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {versions.map((version, index) => {
            const shown = pair.before === `v${index}`;
            return (
              <Table.Tr key={`${version.replaced_at}-${version.sha256}`} aria-current={shown ? 'true' : undefined} bg={shown ? 'var(--mantine-primary-color-light)' : undefined}>
                <Table.Td>{formatDateTime(version.replaced_at)}</Table.Td>
                <Table.Td>{replacedBy(version)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={version.change === 'deleted' ? 'red' : 'blue'} tt="none">
                    {CHANGE_WORDS[version.change]}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant={shown ? 'filled' : 'default'}
                    aria-label={`Compare the version until ${formatDateTime(version.replaced_at)} with what replaced it`}
                    onClick={() => setPair({ before: `v${index}`, after: index === 0 ? 'now' : `v${index - 1}` })}
                  >
                    What this change did
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {history.hasNextPage && (
        <Group>
          <Button variant="default" size="compact-sm" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
            Show older
          </Button>
        </Group>
      )}
      {history.error !== null && (
        <Alert variant="default" title="Older versions could not be loaded">
          {errorLinesOf(history.error).join(' ')}
        </Alert>
      )}
      <Title order={3} size="h5">
        Side by side
      </Title>
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Select label="Earlier" data={options} value={pair.before} allowDeselect={false} onChange={(value) => value !== null && setPair((previous) => ({ ...previous, before: value as Side }))} w={320} />
        <Select label="Later" data={options} value={pair.after} allowDeselect={false} onChange={(value) => value !== null && setPair((previous) => ({ ...previous, after: value as Side }))} w={320} />
      </Group>
      {available(pair.before) && available(pair.after) ? (
        <VersionComparison rows={rows} beforeTitle={titleOf(pair.before)} afterTitle={titleOf(pair.after)} />
      ) : (
        <Text size="sm" c="dimmed">
          Choose two versions to compare (the record as it is now is not shown on this screen).
        </Text>
      )}
    </Stack>
  );
}
