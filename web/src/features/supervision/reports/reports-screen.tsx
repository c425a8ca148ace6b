import { Group, Paper, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import type { SupervisionReport } from '#shared/constants/supervision.ts';
import { BarChart } from '../../../components/charts/bar-chart.tsx';
import { StackedBarChart } from '../../../components/charts/stacked-bar-chart.tsx';
import { CursorTable, type Column } from '../../../components/data/cursor-table.tsx';
import { DateRangeFilter } from '../../../components/filters/date-range-filter.tsx';
import { InvertedRangeNotice } from '../../../components/filters/filter-inputs.tsx';
import { PageHeader } from '../../../components/page/page-header.tsx';
import { useSupervisionReport } from '../api/get-report.ts';
import {
  AGE_BUCKETS,
  AGE_LABELS,
  falsePositiveBars,
  OUTSTANDING_COLUMNS,
  outstandingByAge,
  periodNote,
  POLICY_OUTCOME_COLUMNS,
  REVIEWER_COLUMNS,
  TERM_OUTCOME_COLUMNS,
} from './report-tables.ts';
import type { ReportsSearch } from './reports-search.ts';

/** A report's rows in the portal's table: the report is one answer, so there is never a next page. */
function ReportTable<T>({ label, columns, rows, rowKey, state, empty }: {
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  state: { isLoading: boolean; error: Error | null };
  empty: string;
}) {
  return (
    <CursorTable
      label={label}
      columns={columns}
      rows={rows}
      rowKey={rowKey}
      isLoading={state.isLoading}
      error={state.error}
      hasNextPage={false}
      isFetchingNextPage={false}
      fetchNextPage={() => undefined}
      empty={empty}
    />
  );
}

type Period = { from?: string | undefined; to?: string | undefined };

/** What the report counts over the period, under its tab. */
function PeriodNote({ report, period }: { report: SupervisionReport; period: Period }) {
  return (
    <Text size="sm" c="dimmed" data-testid="report-period">
      {periodNote(report, period)}
    </Text>
  );
}

function Outstanding({ period }: { period: Period }) {
  const report = useSupervisionReport('outstanding', period);
  const rows = report.data?.report === 'outstanding' ? report.data.rows : [];
  return (
    <Stack gap="md">
      <PeriodNote report="outstanding" period={period} />
      <Paper withBorder p="md">
        <StackedBarChart
          title="Outstanding items by age"
          labelHeader="Person"
          segments={AGE_BUCKETS.map((bucket) => AGE_LABELS[bucket])}
          data={outstandingByAge(rows)}
          emptyText={report.isLoading ? 'Loading…' : 'Nothing outstanding.'}
        />
      </Paper>
      <ReportTable
        label="Outstanding items per person and policy"
        columns={OUTSTANDING_COLUMNS}
        rows={rows}
        rowKey={(row) => `${row.device_user_reference ?? ''}\u0000${row.policy_reference}`}
        state={report}
        empty="Nothing outstanding in this period."
      />
    </Stack>
  );
}

function Outcomes({ period }: { period: Period }) {
  const report = useSupervisionReport('outcomes', period);
  const policies = report.data?.report === 'outcomes' ? report.data.policies : [];
  const terms = report.data?.report === 'outcomes' ? report.data.terms : [];
  return (
    <Stack gap="md">
      <PeriodNote report="outcomes" period={period} />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Paper withBorder p="md">
          <BarChart title="False positive share per policy (%)" labelHeader="Policy" valueHeader="False positive %" data={falsePositiveBars(policies, (row) => row.policy_reference)} emptyText="Nothing closed yet." />
        </Paper>
        <Paper withBorder p="md">
          <BarChart title="False positive share per term (%)" labelHeader="Term" valueHeader="False positive %" data={falsePositiveBars(terms, (row) => `${row.term} (${row.policy_reference})`)} emptyText="Nothing closed yet." />
        </Paper>
      </SimpleGrid>
      <Title order={2} size="h4">
        Per policy
      </Title>
      <ReportTable label="Outcomes per policy" columns={POLICY_OUTCOME_COLUMNS} rows={policies} rowKey={(row) => row.policy_reference} state={report} empty="No hits in this period." />
      <Title order={2} size="h4">
        Per term
      </Title>
      <ReportTable label="Outcomes per term" columns={TERM_OUTCOME_COLUMNS} rows={terms} rowKey={(row) => `${row.policy_reference}\u0000${row.term}`} state={report} empty="No term hits in this period." />
    </Stack>
  );
}

function Reviewers({ period }: { period: Period }) {
  const report = useSupervisionReport('reviewers', period);
  const rows = report.data?.report === 'reviewers' ? report.data.rows : [];
  return (
    <Stack gap="md">
      <PeriodNote report="reviewers" period={period} />
      <ReportTable label="Reviewers" columns={REVIEWER_COLUMNS} rows={rows} rowKey={(row) => row.reviewer} state={report} empty="Nobody closed an item in this period." />
    </Stack>
  );
}

const TABS: { value: SupervisionReport; label: string }[] = [
  { value: 'outstanding', label: 'Outstanding' },
  { value: 'outcomes', label: 'Outcomes' },
  { value: 'reviewers', label: 'Reviewers' },
];

/**
 * /dashboard/supervision/reports: the three reports a principal shows an examiner, over a period in the URL —
 * outstanding work per person (by name) and policy with its age, outcomes per policy and per term with the share
 * closed as false positive, and reviewers with the median time to close. Each table exports exactly its rows as CSV.
 */
export function ReportsScreen({ search, onSearch }: { search: ReportsSearch; onSearch: (next: ReportsSearch) => void }) {
  const period = { from: search.from, to: search.to };
  return (
    <>
      <PageHeader title="Supervision reports" description="What is outstanding, what reviews found, and who reviewed: the evidence of supervision over a period." />
      <Group align="flex-end" mb="md" role="search" aria-label="Report period">
        <DateRangeFilter from={search.from} to={search.to} onChange={(range) => onSearch({ ...search, ...range })} />
      </Group>
      <InvertedRangeNotice from={search.from} to={search.to} />
      <Tabs defaultValue="outstanding" keepMounted={false}>
        <Tabs.List mb="md">
          {TABS.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="outstanding">
          <Outstanding period={period} />
        </Tabs.Panel>
        <Tabs.Panel value="outcomes">
          <Outcomes period={period} />
        </Tabs.Panel>
        <Tabs.Panel value="reviewers">
          <Reviewers period={period} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
