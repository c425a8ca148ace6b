import { Anchor, Badge } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ClientStatistics, ClientSummary } from '#shared/contract/entities/licences.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { useClients } from './api/list-clients.ts';
import { limitsSummary } from './limits-summary.ts';
import { useStatistics } from './api/list-statistics.ts';

/** The staff console's start: the clients the provider serves with their counts; each opens its client view. */
export function ClientsScreen() {
  const clients = useClients();
  const statistics = useStatistics();
  const counts = new Map<string, ClientStatistics>(statistics.items.map((row) => [row.client, row]));
  const count = (client: string, pick: (row: ClientStatistics) => number | undefined) => {
    const row = counts.get(client);
    return row === undefined ? undefined : (pick(row) ?? 0);
  };

  const columns: readonly Column<ClientSummary>[] = [
    {
      header: 'Client',
      value: (row) => row.client,
      render: (row) => (
        <Anchor renderRoot={(props) => <Link {...props} to="/internal/clients/$client" params={{ client: row.client }} />} underline="always">
          {row.client}
        </Anchor>
      ),
    },
    { header: 'Name', value: (row) => row.display_name ?? '' },
    {
      header: 'Active',
      value: (row) => (row.is_active === false ? 'No' : 'Yes'),
      render: (row) => (
        <Badge miw="max-content" color={row.is_active === false ? 'gray' : 'teal'} variant="light" tt="none">
          {row.is_active === false ? 'Inactive' : 'Active'}
        </Badge>
      ),
    },
    { header: 'Devices', value: (row) => count(row.client, (stats) => stats.devices), render: (row) => formatNumber(count(row.client, (stats) => stats.devices)) },
    { header: 'Device users', value: (row) => count(row.client, (stats) => stats.device_users), render: (row) => formatNumber(count(row.client, (stats) => stats.device_users)) },
    { header: 'Payloads', value: (row) => count(row.client, (stats) => stats.payloads), render: (row) => formatNumber(count(row.client, (stats) => stats.payloads)) },
    { header: 'Licence limits', value: (row) => limitsSummary(row.limits), render: (row) => limitsSummary(row.limits) },
    { header: 'Created', value: (row) => row.created_at ?? '', render: (row) => formatDate(row.created_at) },
  ];

  return (
    <>
      <PageHeader
        title="Staff console"
        description="The provider's clients with their size. Open a client for its licences, statistics and support access."
      />
      <CursorTable label="Clients" columns={columns} rows={clients.items} rowKey={(row) => row.client} {...pagingOf(clients)} empty="No clients yet." />
    </>
  );
}
