import { Alert, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { BarChart } from '../../components/charts/bar-chart.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useDashboard } from './api/get-dashboard.ts';
import { dashboardCards, versionBars, type StatCard } from './dashboard-stats.ts';

/** Device and device-user counts as stat cards, then app and OS versions as bar charts (spec points 1 and 3). */
export function DashboardView() {
  const dashboard = useDashboard();

  if (dashboard.isPending) {
    return (
      <Stack aria-busy="true">
        <Skeleton height={96} />
        <Skeleton height={96} />
        <Skeleton height={220} />
      </Stack>
    );
  }
  if (dashboard.isError) {
    return (
      <Alert color="red" title="The dashboard could not be loaded">
        {dashboard.error.message}
      </Alert>
    );
  }

  const cards = dashboardCards(dashboard.data);
  return (
    <Stack gap="xl">
      <StatSection title="Devices" cards={cards.devices} />
      <StatSection title="Device users" cards={cards.users} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder p="md">
          <BarChart
            title="App versions"
            labelHeader="App version"
            valueHeader="Devices"
            data={versionBars(dashboard.data.app_versions)}
            emptyText="No devices have reported an app version."
          />
        </Paper>
        <Paper withBorder p="md">
          <BarChart
            title="OS versions"
            labelHeader="OS version"
            valueHeader="Devices"
            data={versionBars(dashboard.data.os_versions)}
            emptyText="No devices have reported an OS version."
          />
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

function StatSection({ title, cards }: { title: string; cards: readonly StatCard[] }) {
  const headingId = `stats-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <section aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="sm">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 2, sm: cards.length }} spacing="md" component="dl" m={0}>
        {cards.map((card) => (
          <Paper key={card.label} withBorder p="md">
            <Text component="dt" size="sm" c="dimmed">
              {card.label}
            </Text>
            <Text component="dd" m={0} fz={28} fw={700} lh={1.2}>
              {formatNumber(card.value)}
            </Text>
            {card.detail !== undefined && (
              <Text component="dd" m={0} size="xs" c="dimmed">
                {card.detail}
              </Text>
            )}
          </Paper>
        ))}
      </SimpleGrid>
    </section>
  );
}
