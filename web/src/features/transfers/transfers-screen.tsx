import { Button, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { TRANSFER_STATES } from '#shared/constants/account.ts';
import type { Transferable } from '#shared/contract/entities/transfers.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { InvertedRangeNotice } from '../../components/filters/filter-inputs.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useCursorList } from '../../lib/api-hooks.ts';
import { useCan } from '../../lib/use-can.ts';
import { listConfigs } from './api/list-configs.ts';
import { ConfigLink, TransferLink } from './links.tsx';
import { TransferProgressBar, TransferStateBadge } from './transfer-bits.tsx';
import { transferQueryOf, type TransfersSearch } from './transfer-filters.ts';
import { TRANSFER_STATE_LABELS, TRANSFER_TYPE_LABELS } from './transfer-labels.ts';
import { progressOf } from './transfer-progress.ts';
import { useTransfers } from './api/list-transfers.ts';

const shortId = (id: string) => `…${id.slice(-8)}`;

const columns: readonly Column<Transferable>[] = [
  {
    header: 'Transfer',
    value: (row) => row.transfer_id,
    render: (row) => (
      <TransferLink transferId={row.transfer_id} label={`Open transfer ${row.transfer_id}`}>
        <Text span ff="monospace" size="sm" style={{ whiteSpace: 'nowrap' }}>
          {shortId(row.transfer_id)}
        </Text>
      </TransferLink>
    ),
  },
  { header: 'State', value: (row) => TRANSFER_STATE_LABELS[row.transfer_state], render: (row) => <TransferStateBadge state={row.transfer_state} /> },
  {
    header: 'Configuration',
    value: (row) => row.transfer_config_reference,
    render: (row) => <ConfigLink reference={row.transfer_config_reference}>{row.transfer_config_reference}</ConfigLink>,
  },
  { header: 'Type', value: (row) => TRANSFER_TYPE_LABELS[row.transfer_type] },
  { header: 'Created', value: (row) => row.created_at, render: (row) => formatDateTime(row.created_at) },
  { header: 'Completed', value: (row) => row.completed_at ?? '', render: (row) => formatDateTime(row.completed_at) },
  {
    header: 'Progress',
    value: (row) => progressOf(row).words,
    render: (row) => <TransferProgressBar transfer={row} label={`Progress of transfer ${shortId(row.transfer_id)}`} />,
  },
];

/** Transfers: every run of a configuration, newest first, with its state and progress; refreshed while any moves. */
export function TransfersScreen({ search, onSearch }: { search: TransfersSearch; onSearch: (next: TransfersSearch) => void }) {
  const list = useTransfers(transferQueryOf(search));
  const canListConfigs = useCan('transferConfigs:List').allowed;
  const configs = useCursorList(listConfigs, { query: { limit: '100' } }, { enabled: canListConfigs });
  const configOptions = [...new Set([...configs.items.map((config) => config.transfer_config_reference), ...(search.config === undefined ? [] : [search.config])])];
  const patch = (next: Partial<TransfersSearch>) => onSearch({ ...search, ...next });
  const filtered = Object.values(search).some((value) => value !== undefined);

  return (
    <>
      <PageHeader
        title="Transfers"
        description="Deliveries of recordings to your own storage: each run of a transfer configuration, its progress and every file's checksums."
        actions={
          <Button variant="default" renderRoot={(props) => <Link {...props} to="/dashboard/account/transfers/config" />}>
            Configurations
          </Button>
        }
      />
      <Stack gap="xs" component="form" role="search" aria-label="Filter transfers" onSubmit={(event) => event.preventDefault()} mb="md">
        <SimpleGrid cols={{ base: 1, sm: 4 }}>
          <Select
            label="State"
            placeholder="Any state"
            clearable
            data={TRANSFER_STATES.map((state) => ({ value: state, label: TRANSFER_STATE_LABELS[state] }))}
            value={search.state ?? null}
            onChange={(value) => patch({ state: (value ?? undefined) as TransfersSearch['state'] })}
          />
          <Select
            label="Configuration"
            placeholder="Any configuration"
            clearable
            searchable
            data={configOptions}
            value={search.config ?? null}
            onChange={(value) => patch({ config: value ?? undefined })}
          />
          <DateRangeFilter fromLabel="Created from" toLabel="Created to" from={search.from} to={search.to} onChange={(range) => patch(range)} />
        </SimpleGrid>
        <InvertedRangeNotice from={search.from} to={search.to} />
      </Stack>
      <CursorTable
        label="Transfers"
        columns={columns}
        rows={list.items}
        rowKey={(row) => row.transfer_id}
        {...pagingOf(list)}
        empty={
          filtered
            ? 'No transfer matches these filters.'
            : 'No transfers yet. A configuration runs on its schedule, or when someone presses Run now on the configuration screen.'
        }
      />
    </>
  );
}
