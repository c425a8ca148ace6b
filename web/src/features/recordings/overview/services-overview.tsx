import { Badge, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { BarChart } from '../../../components/charts/bar-chart.tsx';
import { CursorTable, pagingOf, type Column } from '../../../components/data/cursor-table.tsx';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { usePayloadCounts } from '../api/count-payloads.ts';
import { usePayloadList } from '../api/list-payloads.ts';
import { DeviceLink, DeviceUserLink, RecordingLink, ServiceLink } from '../lists/links.tsx';
import { deviceLabel, recordingTitle } from '../shared/recording-title.ts';
import { OVERVIEW_PERIODS, type ServicesOverviewSearch } from '../lists/search.ts';
import { RECORDING_KINDS } from '../shared/kinds.ts';
import { PAYLOAD_STATE_COLOURS, PAYLOAD_STATE_LABELS, PAYLOAD_TYPE_LABELS } from '../shared/labels.ts';
import { COUNTED_STATES, periodRange, serviceSummaries, type ServiceSummary } from './overview-model.ts';
import { useRecordedCounts } from './recorded-counts.ts';
import { ERROR_TEXT } from '../../../app/theme.ts';

const PERIOD_LABELS: Record<(typeof OVERVIEW_PERIODS)[number], string> = { '7': '7 days', '30': '30 days', '90': '90 days', '365': '12 months' };
const PERIOD_WORDS: Record<(typeof OVERVIEW_PERIODS)[number], string> = {
  '7': 'last 7 days',
  '30': 'last 30 days',
  '90': 'last 90 days',
  '365': 'last 12 months',
};
const ATTENTION_ROWS = '10';

/**
 * The services overview: recordings of the chosen period by type (the payload metrics' daily counters, the source
 * Device metrics reads) and by state (counts from `GET payloads` with `result_type=total`, each opening the list it
 * counts), then the late uploads and the failed and quarantined captures
 * someone should look at.
 */
export function ServicesOverview({ search, onSearch }: { search: ServicesOverviewSearch; onSearch: (next: ServicesOverviewSearch) => void }) {
  const days = search.days ?? '30';
  // The day is fixed when the period is picked, so the counts' query keys stay put while the screen is open.
  const range = useMemo(() => periodRange(Number(days), new Date()), [days]);
  const periodWords = PERIOD_WORDS[days];

  const queries = useMemo(
    () => [...COUNTED_STATES.map((state) => ({ ...range, payload_state: state })), { ...range, is_late: 'true' as const }],
    [range],
  );
  const states = usePayloadCounts(queries);
  // Recordings by type: the device metrics' own counters, so this screen and Device metrics agree for the same days.
  const recorded = useRecordedCounts(range);
  const typeCounts: (number | undefined)[] = recorded.data ?? PAYLOAD_TYPES.map(() => undefined);
  const stateCounts = states.counts.slice(0, COUNTED_STATES.length);
  const lateCount = states.counts[states.counts.length - 1];
  const summaries = serviceSummaries(typeCounts);
  const error = recorded.error ?? states.error;
  const isLoading = recorded.isLoading || states.isLoading;

  return (
    <Stack gap="xl">
      <Group justify="space-between" align="flex-end">
        <Text c="dimmed" size="sm">
          Recorded {formatDay(range.from)} to {formatDay(range.to)} (UTC days). By service and by type: the recordings stored, as Device
          metrics counts them (failed and quarantined captures are under By state).
        </Text>
        <SegmentedControl
          aria-label="Period"
          value={days}
          onChange={(value) => onSearch({ days: value === '30' ? undefined : (value as ServicesOverviewSearch['days']) })}
          data={OVERVIEW_PERIODS.map((value) => ({ value, label: PERIOD_LABELS[value] }))}
        />
      </Group>
      {error !== null && (
        <Text role="alert" c={ERROR_TEXT}>
          Some counts could not be loaded: {error.message}
        </Text>
      )}
      <section aria-labelledby="overview-services">
        <Title order={2} size="h4" id="overview-services" mb="sm">
          By service
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {summaries.map((summary) => (
            <ServiceCard key={summary.kind} summary={summary} range={range} />
          ))}
        </SimpleGrid>
      </section>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder p="md">
          {isLoading ? (
            <Skeleton height={300} aria-label="Loading the counts by type" />
          ) : (
            <BarChart
              title={`Recordings by type, ${periodWords}`}
              labelHeader="Type"
              valueHeader="Recordings"
              data={PAYLOAD_TYPES.map((type, index) => ({ label: PAYLOAD_TYPE_LABELS[type], value: typeCounts[index] ?? 0 }))}
            />
          )}
        </Paper>
        <Paper withBorder p="md">
          {isLoading ? (
            <Skeleton height={300} aria-label="Loading the counts by state" />
          ) : (
            <BarChart
              title={`Recordings by state, ${periodWords}`}
              labelHeader="State"
              valueHeader="Recordings"
              data={COUNTED_STATES.map((state, index) => ({ label: PAYLOAD_STATE_LABELS[state], value: stateCounts[index] ?? 0 }))}
            />
          )}
        </Paper>
      </SimpleGrid>
      <AttentionList
        title="Failed and quarantined"
        description="Captures that could not be opened or checked (Failed), or that the malware scan stopped (Quarantined). Each raised an alert."
        range={range}
        states={['Failed', 'Quarantined']}
        counts={[stateCounts[COUNTED_STATES.indexOf('Failed')], stateCounts[COUNTED_STATES.indexOf('Quarantined')]]}
      />
      <LateList range={range} count={lateCount} />
    </Stack>
  );
}

function formatDay(day: string): string {
  return formatDateTime(`${day}T12:00:00Z`).replace(/,.*$/, '');
}

function ServiceCard({ summary, range: days }: { summary: ServiceSummary; range: { from: string; to: string } }) {
  const { title, noun } = RECORDING_KINDS[summary.kind];
  // The card counts recordings stored (the daily metrics), so its links open exactly those, not every capture.
  const range = { ...days, stored: true };
  return (
    <Paper withBorder p="md">
      <Text size="sm" fw={700} tt="uppercase">
        {title}
      </Text>
      <Text fz={32} fw={700} lh={1.2}>
        <ServiceLink kind={summary.kind} search={range} aria-label={`${formatNumber(summary.total)} ${noun}: open the list`}>
          {summary.total === undefined ? '…' : formatNumber(summary.total)}
        </ServiceLink>
      </Text>
      {summary.parts.length > 1 && (
        <Group gap="md" mt={4}>
          {summary.parts.map((part) => (
            // The whole "Call 6" is the link: a link inside other text would need more than its colour to stand out.
            <Text size="sm" key={part.type}>
              <ServiceLink kind={summary.kind} search={{ ...range, type: part.type }} aria-label={`${formatNumber(part.count)} ${PAYLOAD_TYPE_LABELS[part.type]}: open the list`}>
                {PAYLOAD_TYPE_LABELS[part.type]} {part.count === undefined ? '…' : formatNumber(part.count)}
              </ServiceLink>
            </Text>
          ))}
        </Group>
      )}
    </Paper>
  );
}

const ATTENTION_COLUMNS: readonly Column<Payload>[] = [
  {
    header: 'Recorded',
    value: (row) => row.payload_time ?? '',
    render: (row) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        <RecordingLink type={row.payload_type} reference={row.payload_reference} title={recordingTitle(row)}>
          {formatDateTime(row.payload_time)}
        </RecordingLink>
      </Text>
    ),
  },
  { header: 'Type', value: (row) => PAYLOAD_TYPE_LABELS[row.payload_type] },
  {
    header: 'State',
    value: (row) => PAYLOAD_STATE_LABELS[row.payload_state],
    render: (row) => (
      <Badge variant="light" color={PAYLOAD_STATE_COLOURS[row.payload_state]} miw="max-content">
        {PAYLOAD_STATE_LABELS[row.payload_state]}
      </Badge>
    ),
  },
  {
    header: 'Device',
    value: (row) => deviceLabel({ model: row.device_model, phone_number: row.device_phone_number }) ?? '',
    render: (row) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        <DeviceLink reference={row.device_reference} label={deviceLabel({ model: row.device_model, phone_number: row.device_phone_number })} />
      </Text>
    ),
  },
  {
    header: 'Device user',
    value: (row) => row.device_user_name ?? '',
    render: (row) => (row.device_user_reference === undefined ? '—' : <DeviceUserLink reference={row.device_user_reference} name={row.device_user_name} />),
  },
  { header: 'Group', value: (row) => row.group ?? '' },
  {
    header: 'Uploaded',
    value: (row) => row.uploaded_at ?? '',
    render: (row) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(row.uploaded_at)}
      </Text>
    ),
  },
];

function Section({ id, title, description, count, children }: { id: string; title: string; description: string; count: number | undefined; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Group gap="xs" mb={4}>
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        <Badge variant="light" color={count === 0 ? 'gray' : 'orange'}>
          {count === undefined ? '…' : formatNumber(count)}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {description}
      </Text>
      {children}
    </Paper>
  );
}

function AttentionList({
  title,
  description,
  range,
  states,
  counts,
}: {
  title: string;
  description: string;
  range: { from: string; to: string };
  states: readonly ['Failed', 'Quarantined'];
  counts: readonly (number | undefined)[];
}) {
  const failed = usePayloadList({}, { ...range, payload_state: states[0], limit: ATTENTION_ROWS });
  const quarantined = usePayloadList({}, { ...range, payload_state: states[1], limit: ATTENTION_ROWS });
  const total = counts.some((count) => count === undefined) ? undefined : counts.reduce<number>((sum, count) => sum + (count ?? 0), 0);
  const rows = [...failed.items, ...quarantined.items].sort((a, b) => (b.payload_time ?? '').localeCompare(a.payload_time ?? ''));
  return (
    <Section id="overview-attention" title={title} description={description} count={total}>
      <CursorTable
        label="Failed and quarantined recordings"
        columns={ATTENTION_COLUMNS}
        rows={rows}
        rowKey={(row) => row.payload_reference}
        isLoading={failed.isLoading || quarantined.isLoading}
        error={failed.error ?? quarantined.error}
        hasNextPage={failed.hasNextPage || quarantined.hasNextPage}
        isFetchingNextPage={failed.isFetchingNextPage || quarantined.isFetchingNextPage}
        fetchNextPage={() => Promise.all([failed.hasNextPage && failed.fetchNextPage(), quarantined.hasNextPage && quarantined.fetchNextPage()])}
        empty="Nothing failed or was quarantined in this period."
      />
    </Section>
  );
}

function LateList({ range, count }: { range: { from: string; to: string }; count: number | undefined }) {
  const late = usePayloadList({}, { ...range, is_late: 'true', limit: ATTENTION_ROWS });
  return (
    <Section
      id="overview-late"
      title="Late uploads"
      description="Recordings that reached the portal more than 7 days after they were made: the phone was off line, or the app was stopped."
      count={count}
    >
      <CursorTable
        label="Late uploads"
        columns={ATTENTION_COLUMNS}
        rows={late.items}
        rowKey={(row) => row.payload_reference}
        {...pagingOf(late)}
        empty="No late uploads in this period."
      />
    </Section>
  );
}

