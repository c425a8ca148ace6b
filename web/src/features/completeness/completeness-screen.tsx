import { Alert, Anchor, Group, Paper, SimpleGrid, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { AccountDefaults } from '#shared/contract/entities/account.ts';
import type { CompletenessRow } from '#shared/contract/entities/completeness.ts';
import { BarChart } from '../../components/charts/bar-chart.tsx';
import { LineChart } from '../../components/charts/line-chart.tsx';
import { CursorTable, type Column } from '../../components/data/cursor-table.tsx';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { DebouncedTextFilter, InvertedRangeNotice } from '../../components/filters/filter-inputs.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { invertedRange } from '../../lib/search-params.ts';
import { useCan } from '../../lib/use-can.ts';
import { useCompletenessRows, type CompletenessListQuery } from './api/list-completeness.ts';
import type { CompletenessEntriesQuery } from './api/list-entries.ts';
import {
  COUNT_OUTCOMES,
  countColumns,
  cutName,
  dailyShares,
  gapsFirst,
  groupShares,
  nameColumns,
  periodOf,
  rowKey,
  shareText,
  sumCounts,
} from './completeness-model.ts';
import { CountLink } from './completeness-parts.tsx';
import { DRILL_KEYS, type CompletenessSearch } from './completeness-search.ts';
import { EntriesSection } from './entries-section.tsx';
import { CompletenessSettings } from './settings/completeness-settings.tsx';

type Period = { from: string; to: string };

/** What a row's count opens: the report's search with the drill-down to that row and outcome. */
type DrillOf = (row: CompletenessRow, outcome: CompletenessSearch['outcome']) => CompletenessSearch;

/** The count columns with each count a link to the entries behind it (the CSV keeps the plain numbers). */
function linkedCountColumns(drillOf: DrillOf, describe: (row: CompletenessRow) => string): Column<CompletenessRow>[] {
  return countColumns<CompletenessRow>().map((column) => {
    if (!(column.header in COUNT_OUTCOMES)) return column;
    const outcome = COUNT_OUTCOMES[column.header];
    return {
      ...column,
      render: (row: CompletenessRow) => {
        const count = Number(column.value(row));
        return <CountLink count={count} search={drillOf(row, outcome)} label={`${column.header.toLowerCase()} ${describe(row)}`} />;
      },
    };
  });
}

/** A day stays on one line (a date broken over two lines reads badly). */
const withDayOnOneLine = (columns: readonly Column<CompletenessRow>[]): Column<CompletenessRow>[] =>
  columns.map((column) => (column.header === 'Day' ? { ...column, render: (row) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{row.day}</Text> } : column));

/** A report's rows in the portal's table: every page was read for the chart, so there is never a next page. */
function RowsTable({ label, columns, rows, state, empty }: { label: string; columns: readonly Column<CompletenessRow>[]; rows: readonly CompletenessRow[]; state: { isLoading: boolean; error: Error | null }; empty: string }) {
  return (
    <CursorTable label={label} columns={columns} rows={rows} rowKey={rowKey} isLoading={state.isLoading} error={state.error} hasNextPage={false} isFetchingNextPage={false} fetchNextPage={() => undefined} empty={empty} />
  );
}

function PartialNotice({ partial }: { partial: boolean | undefined }) {
  if (partial !== true) return null;
  return (
    <Alert color="yellow" title="Only part of the period is shown">
      This report has more rows than the screen reads at once. Choose a shorter period or one group to see all of them.
    </Alert>
  );
}

const NO_REPORTS =
  'No ledger reports in this period. Each phone reports what its own call log and message store saw once its Verity app sends its ledger; until then its calls and messages are not counted here. Check the period, or that the phones run a current app.';

/** The period's totals as stat cards, the share per day as a line, and the days as a table. */
function TotalsSection({ period, search, query }: { period: Period; search: CompletenessSearch; query: CompletenessListQuery }) {
  const report = useCompletenessRows(query);
  const rows = report.data?.rows ?? [];
  const totals = sumCounts(rows);
  const shares = dailyShares(rows);
  const where = search.group === undefined ? '' : ` in group ${search.group}`;
  const columns = useMemo(
    () => [
      ...withDayOnOneLine(nameColumns('tenant')),
      ...linkedCountColumns(
        (row, outcome) => ({ ...search, outcome, day: row.day, device_user_reference: undefined, device_reference: undefined, payload_type: undefined }),
        (row) => `on ${formatDate(row.day)}${where}`,
      ),
    ],
    [search, where],
  );
  if (report.isPending) {
    return (
      <Stack aria-busy="true">
        <Skeleton height={88} />
        <Skeleton height={220} />
      </Stack>
    );
  }
  if (report.isError) {
    return (
      <Alert color="red" title="Capture completeness could not be loaded">
        {report.error.message}
      </Alert>
    );
  }
  if (rows.length === 0) {
    return (
      <Alert color="gray" title="Nothing to report yet" data-testid="completeness-empty">
        {NO_REPORTS}
      </Alert>
    );
  }
  const cards: { label: string; value: ReactNode; testId?: string }[] = [
    { label: 'Share complete', value: shareText(totals.share_complete), testId: 'completeness-share' },
    { label: 'Expected', value: formatNumber(totals.expected) },
    { label: 'Captured', value: formatNumber(totals.captured) },
    { label: 'Captured late', value: formatNumber(totals.captured_late) },
    { label: 'Short', value: formatNumber(totals.short) },
    { label: 'Missing', value: formatNumber(totals.missing) },
    { label: 'Pending', value: formatNumber(totals.pending) },
    { label: 'Unexpected', value: formatNumber(totals.unexpected) },
  ];
  return (
    <Stack gap="md">
      <PartialNotice partial={report.data?.partial} />
      <SimpleGrid cols={{ base: 2, sm: 4, lg: 8 }} spacing="sm" component="dl" m={0} aria-label={`Totals from ${formatDate(period.from)} to ${formatDate(period.to)}${where}`}>
        {cards.map((card) => (
          <Paper key={card.label} withBorder p="sm">
            <Text component="dt" size="xs" c="dimmed">
              {card.label}
            </Text>
            <Text component="dd" m={0} fz={22} fw={700} lh={1.2} data-testid={card.testId}>
              {card.value}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Paper withBorder p="md">
        {shares.days.length === 0 ? (
          <Text c="dimmed">Every entry of the period is still within its grace period: no day has a share yet.</Text>
        ) : (
          <LineChart title={`Share complete per day (%)${where}`} categoryHeader="Day" categories={shares.days} series={[{ name: 'Share complete %', values: shares.values }]} />
        )}
      </Paper>
      <RowsTable label={`Completeness per day${where}`} columns={columns} rows={rows} state={report} empty="No days in this period." />
    </Stack>
  );
}

/** Each group's share over the period (lowest first), and its totals with each count opening its entries. */
function GroupsSection({ period, search, onSearch }: { period: Period; search: CompletenessSearch; onSearch: (next: CompletenessSearch) => void }) {
  const report = useCompletenessRows({ ...period, by: 'group' });
  const rows = useMemo(() => report.data?.rows ?? [], [report.data]);
  const perGroup = useMemo(() => {
    const byName = new Map<string, CompletenessRow[]>();
    for (const row of rows) byName.set(row.group ?? '', [...(byName.get(row.group ?? '') ?? []), row]);
    return [...byName.entries()].map(([group, days]): CompletenessRow => ({ ...sumCounts(days), day: `${period.from} to ${period.to}`, ...(group === '' ? {} : { group }) }));
  }, [rows, period.from, period.to]);
  const columns = useMemo<Column<CompletenessRow>[]>(
    () => [
      {
        header: 'Group',
        value: (row) => row.group ?? 'No group',
        render: (row) =>
          row.group === undefined ? (
            'No group'
          ) : (
            <Anchor component="button" size="sm" onClick={() => onSearch({ ...search, group: row.group })}>
              {row.group}
            </Anchor>
          ),
      },
      { header: 'Period', value: (row) => row.day },
      ...linkedCountColumns(
        (row, outcome) => ({ ...search, group: row.group, outcome, day: undefined, device_user_reference: undefined, device_reference: undefined, payload_type: undefined }),
        (row) => `in group ${row.group ?? 'none'} over the period`,
      ),
    ],
    [search, onSearch],
  );
  if (!report.isPending && rows.length === 0) return null;
  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        By group
      </Title>
      <PartialNotice partial={report.data?.partial} />
      <Paper withBorder p="md">
        <BarChart title="Share complete per group over the period (%)" labelHeader="Group" valueHeader="Share complete %" data={groupShares(rows)} emptyText={report.isPending ? 'Loading…' : 'No group has a settled entry yet.'} />
      </Paper>
      <RowsTable label="Completeness per group" columns={columns} rows={perGroup} state={report} empty="No groups in this period." />
    </Stack>
  );
}

/** People or devices whose days had Missing or Short entries, the most missing first; each count opens its entries. */
function GapsTable({ by, period, search }: { by: 'device_user' | 'device'; period: Period; search: CompletenessSearch }) {
  const filter = { ...period, by, ...(search.group === undefined ? {} : { group: search.group }) } as const;
  const missing = useCompletenessRows({ ...filter, outcome: 'Missing' });
  const short = useCompletenessRows({ ...filter, outcome: 'Short' });
  const rows = useMemo(() => gapsFirst([...(missing.data?.rows ?? []), ...(short.data?.rows ?? [])]), [missing.data, short.data]);
  const columns = useMemo<Column<CompletenessRow>[]>(() => {
    const [day, name, reference] = withDayOnOneLine(nameColumns(by));
    return [
      day as Column<CompletenessRow>,
      {
        ...(name as Column<CompletenessRow>),
        render: (row) =>
          by === 'device_user' && row.device_user_reference !== undefined ? (
            <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/dashboard/devices/users/$deviceUserReference" params={{ deviceUserReference: row.device_user_reference ?? '' }} />}>
              {cutName(row)}
            </Anchor>
          ) : by === 'device' && row.device_reference !== undefined ? (
            <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/dashboard/devices/$deviceReference" params={{ deviceReference: row.device_reference ?? '' }} />}>
              {cutName(row)}
            </Anchor>
          ) : (
            cutName(row)
          ),
      },
      { ...(reference as Column<CompletenessRow>), exportable: true, render: (row) => <Text size="xs" c="dimmed">{String(reference?.value(row) ?? '')}</Text> },
      ...linkedCountColumns(
        (row, outcome) => ({
          ...search,
          outcome,
          day: row.day,
          payload_type: undefined,
          device_user_reference: by === 'device_user' ? row.device_user_reference : undefined,
          device_reference: by === 'device' ? row.device_reference : undefined,
        }),
        (row) => `of ${cutName(row)} on ${formatDate(row.day)}`,
      ),
    ];
  }, [by, search]);
  const state = { isLoading: missing.isPending || short.isPending, error: missing.error ?? short.error };
  return (
    <Stack gap="sm">
      <PartialNotice partial={missing.data?.partial === true || short.data?.partial === true} />
      <RowsTable
        label={by === 'device_user' ? 'People with gaps' : 'Devices with gaps'}
        columns={columns}
        rows={rows}
        state={state}
        empty={by === 'device_user' ? 'Nobody has a missing or short call or message in this period.' : 'No device has a missing or short call or message in this period.'}
      />
    </Stack>
  );
}

function GapsSection({ period, search, onSearch }: { period: Period; search: CompletenessSearch; onSearch: (next: CompletenessSearch) => void }) {
  const by = search.gaps ?? 'device_user';
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        Gaps first
      </Title>
      <Text size="sm" c="dimmed">
        The days of each person or device with a missing or short call or message, the most missing first. Open a count to see its entries.
      </Text>
      <Tabs value={by} onChange={(value) => onSearch({ ...search, gaps: value === 'device' ? 'device' : undefined })} keepMounted={false}>
        <Tabs.List mb="sm">
          <Tabs.Tab value="device_user">People</Tabs.Tab>
          <Tabs.Tab value="device">Devices</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="device_user">
          <GapsTable by="device_user" period={period} search={search} />
        </Tabs.Panel>
        <Tabs.Panel value="device">
          <GapsTable by="device" period={period} search={search} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** The entries query of the drill-down: its day (else the period), outcome, cut and payload type. */
export function drillQuery(search: CompletenessSearch, period: Period): CompletenessEntriesQuery {
  const query: Record<string, string> = { from: search.day ?? period.from, to: search.day ?? period.to, limit: '100' };
  if (search.outcome !== undefined) query.outcome = search.outcome;
  if (search.group !== undefined) query.group = search.group;
  if (search.device_user_reference !== undefined) query.device_user_reference = search.device_user_reference;
  if (search.device_reference !== undefined) query.device_reference = search.device_reference;
  if (search.payload_type !== undefined) query.payload_type = search.payload_type;
  return query as CompletenessEntriesQuery;
}

/** The drill-down opened by a count, scrolled into view when it changes. */
function Drill({ search, period, onSearch }: { search: CompletenessSearch; period: Period; onSearch: (next: CompletenessSearch) => void }) {
  const query = drillQuery(search, period);
  const key = JSON.stringify(query);
  const anchor = useRef<HTMLDivElement>(null);
  useEffect(() => anchor.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' }), [key]);
  const close = () => onSearch(Object.fromEntries(Object.entries(search).filter(([name]) => !(DRILL_KEYS as readonly string[]).includes(name))) as CompletenessSearch);
  return (
    <div ref={anchor}>
      <EntriesSection query={query} onClose={close} />
    </div>
  );
}

/**
 * /dashboard/services/completeness: what the phones' own call logs and message stores saw against what Verity holds,
 * over a period (the last 30 days unless the URL says otherwise): the share complete per day, per group, the people
 * and devices with gaps first, and the entries behind any count, each table with its CSV.
 */
export function CompletenessScreen({
  search,
  onSearch,
  now = new Date(),
  settingsHistory,
}: {
  search: CompletenessSearch;
  onSearch: (next: CompletenessSearch) => void;
  now?: Date;
  /** What opens the account defaults' earlier versions beside their hours (features/history, composed by the route). */
  settingsHistory?: (defaults: AccountDefaults) => ReactNode;
}) {
  const canRead = useCan('completeness:List');
  const today = now.toISOString().slice(0, 10);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the period moves with the day, not with every render's clock
  const period = useMemo(() => periodOf(search, now), [search.from, search.to, today]);
  const inverted = invertedRange(period.from, period.to);
  const drilled = search.entries === true || DRILL_KEYS.some((key) => key !== 'entries' && search[key] !== undefined);
  const summaryQuery: CompletenessListQuery = search.group === undefined ? { ...period, by: 'tenant' } : { ...period, by: 'group', group: search.group };
  return (
    <>
      <PageHeader
        title="Capture completeness"
        description="What the phones' own call logs and message stores saw, against what Verity recorded: the share complete per day, the gaps first, and the calls and messages behind every count."
      />
      <Group align="flex-end" mb="md" role="search" aria-label="Report period and group">
        <DateRangeFilter from={period.from} to={period.to} onChange={(range) => onSearch({ ...search, ...range })} />
        <DebouncedTextFilter label="Group" value={search.group} onApply={(group) => onSearch({ ...search, group })} placeholder="All groups" />
      </Group>
      <Text size="sm" c="dimmed" mb="md" data-testid="completeness-period">
        {`From ${formatDate(period.from)} to ${formatDate(period.to)} (UTC days, both included)${search.group === undefined ? '' : `, group ${search.group}`}. An entry counts on the day its call or message started.`}
      </Text>
      <InvertedRangeNotice from={period.from} to={period.to} />
      {!canRead.allowed ? (
        <Alert color="gray" title="Not available to your role">
          {canRead.reason}
        </Alert>
      ) : inverted ? null : (
        <Stack gap="xl">
          <TotalsSection period={period} search={search} query={summaryQuery} />
          {search.group === undefined && <GroupsSection period={period} search={search} onSearch={onSearch} />}
          <GapsSection period={period} search={search} onSearch={onSearch} />
          {drilled && <Drill search={search} period={period} onSearch={onSearch} />}
        </Stack>
      )}
      <Stack mt="xl">
        <CompletenessSettings history={settingsHistory} />
      </Stack>
    </>
  );
}
