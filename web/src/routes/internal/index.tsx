import { Anchor } from '@mantine/core';
import { createFileRoute, Link } from '@tanstack/react-router';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { clientsList } from '../../features/support/support-requests-api.ts';
import { useCursorList } from '../../lib/api-hooks.ts';
import { formatDate } from '../../lib/format.ts';

export const Route = createFileRoute('/internal/')({
  component: InternalOverview,
});

type ClientRow = { client: string; display_name?: string; created_at?: string; is_active?: boolean };

const COLUMNS: readonly Column<ClientRow>[] = [
  { header: 'Client', value: (row) => row.client },
  { header: 'Name', value: (row) => row.display_name },
  { header: 'Active', value: (row) => (row.is_active === false ? 'No' : 'Yes') },
  { header: 'Created', value: (row) => row.created_at, render: (row) => formatDate(row.created_at) },
];

/** The staff console's start: the clients the provider serves. */
function InternalOverview() {
  const list = useCursorList(clientsList, { query: {} });
  return (
    <>
      <PageHeader
        title="Staff console"
        description={
          <>
            The provider&rsquo;s clients. To act inside a client&rsquo;s portal, ask for{' '}
            <Anchor component={Link} to="/internal/support" size="sm" underline="always">
              support access
            </Anchor>
            .
          </>
        }
      />
      <CursorTable
        label="Clients"
        columns={COLUMNS}
        rows={list.items}
        rowKey={(row) => row.client}
        {...pagingOf(list)}
      />
    </>
  );
}
