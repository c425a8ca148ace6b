import { Alert, Badge, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { CursorTable, pagingOf, type Column } from '../../../components/data/cursor-table.tsx';
import { InvertedRangeNotice } from '../../../components/filters/filter-inputs.tsx';
import { downloadCsv, toCsv } from '../../../lib/csv.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { interleaveGaps, isGapRow, type GapRow } from '../../../lib/gap-rows.ts';
import { compactQuery, invertedRange } from '../../../lib/search-params.ts';
import { usePayloadList, type PayloadListQuery, type PayloadScope } from '../api/list-payloads.ts';
import { RECORDING_KINDS, type RecordingKind } from '../shared/kinds.ts';
import { BulkActions } from './bulk-actions.tsx';
import { groupByThread } from './message-threads.ts';
import { PhotoGrid } from './photo-grid.tsx';
import { recordingColumns } from './recording-columns.tsx';
import { RecordingFilters } from './recording-filters.tsx';
import type { RowOutcome } from './row-outcome.ts';
import type { RecordingsSearch } from './search.ts';
import { useSelection } from './use-selection.ts';

/** The API query for a screen's filters: its own types (or the one type picked among them), blanks left out. */
export function recordingsQuery(kind: RecordingKind, search: RecordingsSearch): PayloadListQuery {
  const types: readonly string[] = RECORDING_KINDS[kind].types;
  const picked = search.type !== undefined && types.includes(search.type) ? search.type : undefined;
  const payloadTypes = picked ?? (kind === 'calls' ? 'Calls' : kind === 'messages' ? 'Messages' : kind === 'all' ? undefined : types[0]);
  return compactQuery({
    from: search.from,
    to: search.to,
    date_filter_type: search.date_filter_type,
    payload_types: payloadTypes,
    payload_state: search.payload_state,
    is_late: search.is_late === true ? 'true' : undefined,
    stored: search.stored === true ? 'true' : undefined,
    group: search.group,
    device_reference: search.device_reference,
    device_user_reference: search.device_user_reference,
    phone_number: search.phone_number,
  }) as PayloadListQuery;
}

function scopeName(scope: PayloadScope): 'tenant' | 'device' | 'deviceUser' {
  return 'device' in scope ? 'device' : 'deviceUser' in scope ? 'deviceUser' : 'tenant';
}

/**
 * A recordings list with the filters `GET payloads` offers (kept in the URL by the route), cursor paging, CSV of
 * what is shown, and bulk receipts and download links for up to 100 selected rows, each row showing its answer.
 * Messages are grouped by thread; photos show as thumbnails or as the table.
 */
export function RecordingsList({
  kind,
  scope = {},
  label,
  search,
  onSearch,
  gaps,
}: {
  kind: RecordingKind;
  scope?: PayloadScope;
  /** Names the table and its CSV file. */
  label: string;
  search: RecordingsSearch;
  onSearch: (next: RecordingsSearch) => void;
  /**
   * Calls or messages the phones saw that no recording captured (the route composes them from the completeness
   * feature), shown where their recordings would have been, with a note above the table when there are more.
   */
  gaps?: { rows: readonly GapRow[]; note?: ReactNode };
}) {
  const query = useMemo(() => recordingsQuery(kind, search), [kind, search]);
  const list = usePayloadList(scope, query, { enabled: !invertedRange(search.from, search.to) });
  const selection = useSelection();
  const [outcomes, setOutcomes] = useState<ReadonlyMap<string, RowOutcome>>(new Map());
  const queryKey = JSON.stringify(query);
  const clearSelection = selection.clear;
  // Another filter is another list: what was selected or answered for the last one does not carry over.
  useEffect(() => {
    clearSelection();
    setOutcomes(new Map());
  }, [queryKey, clearSelection]);

  const grouped = useMemo(() => (kind === 'messages' ? groupByThread(list.items) : undefined), [kind, list.items]);
  const rows = grouped?.rows ?? list.items;
  const where = scopeName(scope);
  const columns = useMemo(() => {
    const base = recordingColumns(kind, { selection, outcomes, scope: where });
    if (grouped === undefined) return base;
    const thread: Column<Payload> = {
      header: 'Thread',
      value: (row) => grouped.places.get(row.payload_reference)?.label ?? '',
      render: (row) => {
        const place = grouped.places.get(row.payload_reference);
        if (place === undefined) return '—';
        return place.first ? (
          <Text size="sm" fw={600}>
            {place.label}
            <Text span size="xs" c="dimmed" display="block">
              {place.size === 1 ? '1 message shown' : `${place.size} messages shown`}
            </Text>
          </Text>
        ) : (
          <Text size="xs" c="dimmed">
            Same thread
          </Text>
        );
      },
    };
    // The thread leads (after the checkbox): the table reads as conversations.
    const at = base[0]?.header === 'Select' ? 1 : 0;
    return [...base.slice(0, at), thread, ...base.slice(at)];
  }, [kind, selection, outcomes, where, grouped]);

  const gapRows = gaps?.rows;
  const withGaps = useMemo(
    () =>
      gapRows === undefined || gapRows.length === 0 || list.isLoading
        ? rows
        : interleaveGaps(rows, gapRows, {
            timeOfRow: (row) => row.payload_time,
            hasMore: list.hasNextPage,
            // A missing message stands within its conversation when that is shown (same phone, same thread).
            ...(grouped === undefined
              ? {}
              : { sameGroup: (row: Payload, gap: GapRow) => row.device_reference === gap.device_reference && row.thread_id !== undefined && row.thread_id === gap.thread_id }),
          }),
    [rows, gapRows, list.isLoading, list.hasNextPage, grouped],
  );

  const view = kind === 'photos' ? (search.view ?? 'grid') : 'table';
  const shown = rows.map((row) => row.payload_reference);

  return (
    <Stack>
      <RecordingFilters
        label={label}
        types={RECORDING_KINDS[kind].types}
        search={search}
        onSearch={onSearch}
        tenantWide={where === 'tenant'}
        withPhoneNumber={kind === 'calls' || kind === 'messages' || kind === 'all'}
      />
      <InvertedRangeNotice from={search.from} to={search.to} />
      <BulkActions selection={selection} shown={shown} onOutcomes={setOutcomes} />
      {kind === 'photos' && (
        <SegmentedControl
          aria-label="Show photos as"
          w="max-content"
          value={view}
          onChange={(value) => onSearch({ ...search, view: value === 'table' ? 'table' : undefined })}
          data={[
            { value: 'grid', label: 'Thumbnails' },
            { value: 'table', label: 'Table' },
          ]}
        />
      )}
      {view === 'grid' ? (
        <GridWithPaging label={label} rows={rows} columns={columns} list={list} selection={selection} />
      ) : (
        <>
          {gaps?.note}
          <CursorTable<Payload, GapRow>
            label={label}
            columns={columns}
            rows={withGaps}
            rowKey={(row) => (isGapRow(row) ? `gap:${row.gap_key}` : row.payload_reference)}
            {...pagingOf(list)}
            empty={`No ${RECORDING_KINDS[kind].noun} match these filters.`}
            spanRow={{ is: isGapRow, render: (gap) => <GapLine gap={gap} />, noun: 'not recorded' }}
          />
        </>
      )}
    </Stack>
  );
}

/** The thumbnails with the same count, CSV and "Load more" as the table. */
function GridWithPaging({
  label,
  rows,
  columns,
  list,
  selection,
}: {
  label: string;
  rows: readonly Payload[];
  columns: readonly Column<Payload>[];
  list: ReturnType<typeof usePayloadList>;
  selection: ReturnType<typeof useSelection>;
}) {
  const exportCsv = () =>
    downloadCsv(`${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.csv`, toCsv(columns.filter((column) => column.exportable !== false), rows));
  return (
    <div>
      <Group justify="space-between" mb="xs">
        <Text size="sm" c="dimmed" aria-live="polite">
          {list.isLoading ? 'Loading…' : `${formatNumber(rows.length)} shown${list.hasNextPage ? ', more available' : ''}`}
        </Text>
        <Button variant="default" size="xs" onClick={exportCsv} disabled={rows.length === 0}>
          Export CSV
        </Button>
      </Group>
      {list.error !== null && rows.length === 0 ? (
        <Alert variant="default" color="red" title="The list could not be loaded">
          {list.error.message}
        </Alert>
      ) : !list.isLoading && rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="md">
          No photos match these filters.
        </Text>
      ) : (
        <PhotoGrid rows={rows} selection={selection} />
      )}
      {list.hasNextPage && (
        <Group justify="center" mt="sm">
          <Button variant="light" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
            Load more
          </Button>
        </Group>
      )}
    </div>
  );
}

/** A call or message the phone saw that no recording captured: clearly a line of its own, not a recording. */
function GapLine({ gap }: { gap: GapRow }) {
  return (
    <Group gap="sm" wrap="nowrap" data-testid="gap-row">
      <Badge color="red" variant="outline" miw="max-content">
        Not recorded
      </Badge>
      <Text size="xs" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(gap.time)}
      </Text>
      <Text size="sm" fs="italic">
        {gap.text}
      </Text>
    </Group>
  );
}
