import { Alert, Anchor, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { CompletenessRow } from '#shared/contract/entities/completeness.ts';
import { CursorTable, type Column } from '../../components/data/cursor-table.tsx';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { useCan } from '../../lib/use-can.ts';
import { useSubjectCompleteness, type CompletenessSubject } from './api/get-cut-completeness.ts';
import { COUNT_OUTCOMES, fileNameOf, periodOf, rowKey, shareText, sumCounts } from './completeness-model.ts';
import { CountLink, DownloadEntriesButton } from './completeness-parts.tsx';
import type { CompletenessSearch } from './completeness-search.ts';

const PANEL_COLUMNS = ['Share complete', 'Expected', 'Missing', 'Short', 'Captured late', 'Pending'] as const;

/**
 * A device's or device user's capture completeness over the last 30 days, on its page: the period's share, missing,
 * short and late, its days that had calls or messages (each count opening the entries behind it on the report), a
 * link to the report filtered to them, and "Download ledger (CSV)": every entry of the period, the export of a
 * device user's ledger on request. Hidden from a role that cannot read completeness.
 */
export function CompletenessPanel({ subject, name, now = new Date(), mb }: { subject: CompletenessSubject; name: string; now?: Date; mb?: string }) {
  const canRead = useCan('completeness:List');
  const today = now.toISOString().slice(0, 10);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the period moves with the day, not with every render's clock
  const period = useMemo(() => periodOf({}, now), [today]);
  const days = useSubjectCompleteness(subject, period, { enabled: canRead.allowed });
  const filter = 'device' in subject ? { device_reference: subject.device } : { device_user_reference: subject.deviceUser };
  const drill = (row: CompletenessRow | undefined, outcome: CompletenessSearch['outcome']): CompletenessSearch => ({
    ...period,
    ...filter,
    outcome,
    ...(row === undefined ? {} : { day: row.day }),
    entries: true,
  });
  const columns = useMemo<Column<CompletenessRow>[]>(
    () => [
      { header: 'Day', value: (row) => row.day, render: (row) => formatDate(row.day) },
      { header: 'Share complete', value: (row) => shareText(row.share_complete) },
      ...(['Expected', 'Missing', 'Short', 'Captured late', 'Pending'] as const).map((header) => {
        const counter = ({ Expected: 'expected', Missing: 'missing', Short: 'short', 'Captured late': 'captured_late', Pending: 'pending' } as const)[header];
        return {
          header,
          value: (row: CompletenessRow) => row[counter],
          render: (row: CompletenessRow) => (
            <CountLink count={row[counter]} search={drill(row, COUNT_OUTCOMES[header])} label={`${header.toLowerCase()} of ${name} on ${formatDate(row.day)}`} />
          ),
        };
      }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- drill reads only the period and the subject, both in the key
    [name, period.from, JSON.stringify(filter)],
  );
  if (!canRead.allowed) return null;
  const rows = days.data !== undefined && 'data' in days.data ? days.data.data : [];
  const totals = sumCounts(rows);
  return (
    <Paper component="section" withBorder p="md" mb={mb} aria-labelledby="completeness-panel" data-testid="completeness-panel">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} size="h4" id="completeness-panel">
              Capture completeness
            </Title>
            <Text size="sm" c="dimmed">
              {`What this ${'device' in subject ? 'phone' : 'person’s phones'} saw against what was recorded, from ${formatDate(period.from)} to ${formatDate(period.to)}.`}
            </Text>
          </div>
          <Group gap="xs">
            <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/dashboard/services/completeness" search={drill(undefined, undefined)} />}>
              Open in the report
            </Anchor>
            <DownloadEntriesButton query={{ ...period, ...filter }} fileName={fileNameOf('ledger', name, period.from, period.to)} />
          </Group>
        </Group>
        {days.isPending ? (
          <Skeleton height={72} aria-busy="true" />
        ) : days.isError ? (
          <Alert color="red" title="Capture completeness could not be loaded">
            {days.error.message}
          </Alert>
        ) : rows.length === 0 ? (
          <Text c="dimmed">No ledger entries in these 30 days: the phone has not reported what its call log and message store saw.</Text>
        ) : (
          <>
            <SimpleGrid cols={{ base: 2, sm: PANEL_COLUMNS.length }} spacing="sm" component="dl" m={0}>
              {PANEL_COLUMNS.map((label) => (
                <div key={label}>
                  <Text component="dt" size="xs" c="dimmed">
                    {label}
                  </Text>
                  <Text component="dd" m={0} fw={700} fz="lg">
                    {label === 'Share complete'
                      ? shareText(totals.share_complete)
                      : formatNumber(totals[({ Expected: 'expected', Missing: 'missing', Short: 'short', 'Captured late': 'captured_late', Pending: 'pending' } as const)[label]])}
                  </Text>
                </div>
              ))}
            </SimpleGrid>
            <CursorTable
              label={`Capture completeness per day of ${name}`}
              columns={columns}
              rows={rows}
              rowKey={rowKey}
              isLoading={false}
              hasNextPage={false}
              isFetchingNextPage={false}
              fetchNextPage={() => undefined}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
