import { Alert, Loader, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { BarChart } from '../../components/charts/bar-chart.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useClients } from './api/list-clients.ts';
import { useStatistics } from './api/list-statistics.ts';
import { stateCounts } from './statistics-model.ts';

/** The top of a client view: its name, its size, and its devices and device users by state. */
export function ClientOverview({ client }: { client: string }) {
  const statistics = useStatistics(client);
  const clients = useClients();
  const summary = clients.items.find((row) => row.client === client);
  const row = statistics.items[0];
  return (
    <>
      <PageHeader title={`Client ${client}`} description={summary?.display_name ?? 'A client of the provider.'} />
      {statistics.isLoading && <Loader size="sm" aria-label="Loading" />}
      {!statistics.isLoading && row === undefined && (
        <Alert color="yellow" title="No such client">
          {statistics.error?.message ?? `There is no client named ${client}.`}
        </Alert>
      )}
      {row !== undefined && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }} mb="lg">
            <Count label="Devices" value={row.devices} />
            <Count label="Device users" value={row.device_users} />
            <Count label="Payloads" value={row.payloads} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" mb="lg">
            <Paper withBorder p="md">
              <BarChart title="Devices by state" labelHeader="State" valueHeader="Devices" titleOrder={3} data={stateCounts(row, 'devices')} emptyText="No devices yet." />
            </Paper>
            <Paper withBorder p="md">
              <BarChart title="Device users by state" labelHeader="State" valueHeader="Device users" titleOrder={3} data={stateCounts(row, 'device_users')} emptyText="No device users yet." />
            </Paper>
          </SimpleGrid>
        </>
      )}
    </>
  );
}

function Count({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Paper withBorder p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Title order={3} size="h2">
        {formatNumber(value ?? 0)}
      </Title>
    </Paper>
  );
}
