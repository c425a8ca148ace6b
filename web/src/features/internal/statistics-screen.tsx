import { Anchor, Paper, SimpleGrid, Stack } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ClientStatistics } from '#shared/contract/entities/licences.ts';
import { BarChart } from '../../components/charts/bar-chart.tsx';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useStatistics } from './api/list-statistics.ts';
import { perClientBars, stateCounts } from './statistics-model.ts';

const activeDevices = (row: ClientStatistics) => stateCounts(row, 'devices').find((entry) => entry.label === 'Activated')?.value;

const COLUMNS: readonly Column<ClientStatistics>[] = [
  {
    header: 'Client',
    value: (row) => row.client,
    render: (row) => (
      <Anchor renderRoot={(props) => <Link {...props} to="/internal/clients/$client" params={{ client: row.client }} />} underline="always">
        {row.client}
      </Anchor>
    ),
  },
  { header: 'Devices', value: (row) => row.devices ?? 0, render: (row) => formatNumber(row.devices ?? 0) },
  { header: 'Active devices', value: (row) => activeDevices(row) ?? '', render: (row) => formatNumber(activeDevices(row)) },
  { header: 'Device users', value: (row) => row.device_users ?? 0, render: (row) => formatNumber(row.device_users ?? 0) },
  { header: 'Payloads', value: (row) => row.payloads ?? 0, render: (row) => formatNumber(row.payloads ?? 0) },
];

/** Per-client statistics: how big each tenant is, as charts and as a table (CSV). */
export function StatisticsScreen() {
  const list = useStatistics();
  return (
    <>
      <PageHeader title="Statistics" description="Each client's devices, device users and payloads, from the counters kept as data arrives." />
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, xl: 3 }} spacing="lg">
          <Paper withBorder p="md">
            <BarChart title="Devices per client" labelHeader="Client" valueHeader="Devices" titleOrder={2} data={perClientBars(list.items, (row) => row.devices)} />
          </Paper>
          <Paper withBorder p="md">
            <BarChart title="Device users per client" labelHeader="Client" valueHeader="Device users" titleOrder={2} data={perClientBars(list.items, (row) => row.device_users)} />
          </Paper>
          <Paper withBorder p="md">
            <BarChart title="Payloads per client" labelHeader="Client" valueHeader="Payloads" titleOrder={2} data={perClientBars(list.items, (row) => row.payloads)} />
          </Paper>
        </SimpleGrid>
        <CursorTable label="Client statistics" columns={COLUMNS} rows={list.items} rowKey={(row) => row.client} {...pagingOf(list)} empty="No clients yet." />
      </Stack>
    </>
  );
}
