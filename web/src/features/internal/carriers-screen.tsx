import { Badge, Group, Paper, Stack } from '@mantine/core';
import { BarChart } from '../../components/charts/bar-chart.tsx';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useCountries } from './api/list-countries.ts';
import { carrierRows, type CarrierRow } from './statistics-model.ts';

const COLUMNS: readonly Column<CarrierRow>[] = [
  { header: 'Country', value: (row) => `${row.country_name} (+${row.country_code})` },
  { header: 'Carrier', value: (row) => row.carrier_name },
  { header: 'Code', value: (row) => row.carrier_code },
  { header: 'First seen', value: (row) => row.first_seen ?? '', render: (row) => formatDateTime(row.first_seen) },
  { header: 'Last seen', value: (row) => row.last_seen ?? '', render: (row) => formatDateTime(row.last_seen) },
  { header: 'Clients', value: (row) => row.clients.length, render: (row) => formatNumber(row.clients.length) },
  {
    header: 'Used by',
    value: (row) => row.clients.join('; '),
    render: (row) => (
      <Group gap={4}>
        {row.clients.map((client) => (
          <Badge miw="max-content" key={client} variant="outline" color="gray" tt="none" c="var(--mantine-color-text)">
            {client}
          </Badge>
        ))}
      </Group>
    ),
  },
];

/** Mobile carriers seen in recordings' carrier metadata, by country, with when they were first and last seen. */
export function CarriersScreen() {
  const list = useCountries();
  const rows = carrierRows(list.items);
  const perCountry = list.items
    .map((country) => ({ label: country.country_name, value: country.carriers.length }))
    .sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
  return (
    <>
      <PageHeader title="Carriers" description="Mobile networks seen in recordings, by country, and which clients' devices used them." />
      <Stack gap="lg">
        <Paper withBorder p="md">
          <BarChart title="Carriers per country" labelHeader="Country" valueHeader="Carriers" titleOrder={2} data={perCountry} emptyText="No carriers seen yet." />
        </Paper>
        <CursorTable
          label="Carriers"
          columns={COLUMNS}
          rows={rows}
          rowKey={(row) => `${row.country_code}/${row.carrier_code}/${row.carrier_name}`}
          {...pagingOf(list)}
          empty="No carriers seen yet."
        />
      </Stack>
    </>
  );
}
