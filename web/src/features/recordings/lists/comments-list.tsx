import { Badge, Button, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { PAYLOAD_TYPES, type PayloadType } from '#shared/constants/payloads.ts';
import type { PayloadComment } from '#shared/contract/entities/comments.ts';
import { CursorTable, pagingOf, type Column } from '../../../components/data/cursor-table.tsx';
import { DateRangeFilter } from '../../../components/filters/date-range-filter.tsx';
import { DebouncedTextFilter, InvertedRangeNotice } from '../../../components/filters/filter-inputs.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { compactQuery, invertedRange } from '../../../lib/search-params.ts';
import { useCommentList, type CommentListQuery } from '../api/list-comments.ts';
import { PAYLOAD_TYPE_LABELS } from '../shared/labels.ts';
import { describeSpan } from '../detail/spans.ts';
import { RecordingLink } from './links.tsx';
import type { CommentsSearch } from './search.ts';
import { actorName } from '../../../lib/actor-name.ts';

const partOf = (row: PayloadComment) =>
  row.comment_duration === undefined
    ? ''
    : describeSpan(row.comment_duration);

const COLUMNS: readonly Column<PayloadComment>[] = [
  {
    header: 'Raised',
    value: (row) => row.raised_at,
    render: (row) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(row.raised_at)}
      </Text>
    ),
  },
  { header: 'Comment', value: (row) => row.comment_body, render: (row) => <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{row.comment_body}</Text> },
  { header: 'Raised by', value: (row) => actorName(row.raised_by_actor, row.raised_by) },
  {
    header: 'Recording',
    value: (row) => `${PAYLOAD_TYPE_LABELS[row.payload_type]} ${row.payload_reference}`,
    render: (row) => (
      // The link names the recording's type; its reference (a ULID nobody reads) stays in the CSV and the address.
      <RecordingLink type={row.payload_type} reference={row.payload_reference}>
        {PAYLOAD_TYPE_LABELS[row.payload_type]}
      </RecordingLink>
    ),
  },
  { header: 'Part of the recording', value: partOf, render: (row) => partOf(row) || 'Whole recording' },
  { header: 'Group', value: (row) => row.group ?? '' },
  { header: 'Version', value: (row) => row.comment_version },
  {
    header: 'Status',
    value: (row) => (row.is_closed ? `Deleted ${row.closed_at ?? ''} ${row.closed_by ?? ''}`.trim() : 'Open'),
    render: (row) =>
      row.is_closed ? (
        <Badge variant="light" color="gray" miw="max-content" title={`Deleted by ${row.closed_by ?? 'unknown'} ${formatDateTime(row.closed_at)}`}>
          Deleted
        </Badge>
      ) : (
        <Badge variant="light" color="blue" miw="max-content">
          Open
        </Badge>
      ),
  },
];

/** Comments across the tenant's recordings (`GET comments`), with its filters in the URL. */
export function CommentsList({ search, onSearch }: { search: CommentsSearch; onSearch: (next: CommentsSearch) => void }) {
  const query = compactQuery({
    from: search.from,
    to: search.to,
    payload_types: search.type,
    group: search.group,
    raised_by: search.raised_by,
    include_closed: search.include_closed === true ? 'true' : undefined,
  }) as CommentListQuery;
  const list = useCommentList(query, { enabled: !invertedRange(search.from, search.to) });
  const set = (patch: Partial<CommentsSearch>) => onSearch({ ...search, ...patch });
  const filtered = Object.values(search).some((value) => value !== undefined);
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} component="form" role="search" aria-label="Filter comments" onSubmit={(event) => event.preventDefault()}>
        <DateRangeFilter from={search.from} to={search.to} onChange={(range) => set(range)} fromLabel="Raised from" toLabel="Raised to" />
        <Select
          label="Recording type"
          placeholder="All types"
          clearable
          data={PAYLOAD_TYPES.map((value) => ({ value, label: PAYLOAD_TYPE_LABELS[value] }))}
          value={search.type ?? null}
          onChange={(value) => set({ type: (value ?? undefined) as PayloadType | undefined })}
        />
        <DebouncedTextFilter label="Group" value={search.group} onApply={(value) => set({ group: value })} />
        <DebouncedTextFilter label="Raised by" placeholder="Person reference, e.g. demo-admin" value={search.raised_by} onApply={(value) => set({ raised_by: value })} />
        <Switch
          label="Include deleted comments"
          mt={{ lg: 'xl' }}
          checked={search.include_closed === true}
          onChange={(event) => set({ include_closed: event.currentTarget.checked ? true : undefined })}
        />
        <div>
          <Button variant="subtle" mt={{ lg: 'lg' }} disabled={!filtered} onClick={() => onSearch({})}>
            Clear filters
          </Button>
        </div>
      </SimpleGrid>
      <InvertedRangeNotice from={search.from} to={search.to} />
      <CursorTable
        label="Comments"
        columns={COLUMNS}
        rows={list.items}
        rowKey={(row) => `${row.payload_reference}/${row.comment_id}`}
        {...pagingOf(list)}
        empty="No comments match these filters."
      />
    </Stack>
  );
}
