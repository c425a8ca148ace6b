import { Badge, Button, Group } from '@mantine/core';
import type { SupportAccess } from '#shared/contract/entities/account-data.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { notifySaved } from '../../components/forms/form-errors.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useCancelRequest } from './api/cancel-request.ts';
import { STATE_COLOURS, STATE_LABELS } from './support-labels.ts';
import { actorName } from '../../lib/actor-name.ts';

type ListState = Parameters<typeof pagingOf>[0] & { items: SupportAccess[] };

/**
 * Staff's support-access requests: enter support mode with an approved one, withdraw a pending one or end an
 * approved one early. `showClient` adds the client column (the cross-client list).
 */
export function StaffRequestsTable({
  list,
  showClient,
  empty,
  label,
  onEnter,
}: {
  list: ListState;
  showClient: boolean;
  empty: string;
  label: string;
  /** Enters support mode with an approved request (the session's business, given by the route). */
  onEnter: (request: SupportAccess, client: string) => void;
}) {
  const cancel = useCancelRequest();
  const withdraw = (row: SupportAccess, client: string) =>
    cancel.mutate(
      { client, params: { request_reference: row.request_reference } },
      { onSuccess: () => notifySaved(row.approval_state === 'pending' ? 'Request withdrawn.' : 'Support access ended.') },
    );

  const columns: Column<SupportAccess>[] = [
    ...(showClient ? [{ header: 'Client', value: (row: SupportAccess) => row.client ?? '' }] : []),
    { header: 'Role', value: (row) => row.role },
    { header: 'Reason', value: (row) => row.request_description ?? '' },
    { header: 'Asked by', value: (row) => (row.requested_by === undefined ? '' : actorName(row.requested_by_actor, row.requested_by)) },
    {
      header: 'State',
      value: (row) => STATE_LABELS[row.approval_state],
      render: (row) => (
        <Badge miw="max-content" color={STATE_COLOURS[row.approval_state]} variant="light" tt="none">
          {STATE_LABELS[row.approval_state]}
        </Badge>
      ),
    },
    { header: 'Until', value: (row) => row.approval_expiry ?? row.requested_expiry, render: (row) => formatDateTime(row.approval_expiry ?? row.requested_expiry) },
    { header: 'Note', value: (row) => row.rejection_reason ?? '' },
    {
      header: 'Action',
      value: () => '',
      render: (row) => {
        const client = row.client;
        if (client === undefined || (row.approval_state !== 'approved' && row.approval_state !== 'pending')) return null;
        return (
          <Group gap="xs" wrap="nowrap">
            {row.approval_state === 'approved' && (
              <Button size="xs" onClick={() => onEnter(row, client)}>
                Enter support mode
              </Button>
            )}
            <PermittedButton action="internal:CancelSupportAccess" size="xs" variant="default" loading={cancel.isPending && cancel.variables?.params.request_reference === row.request_reference} onClick={() => withdraw(row, client)}>
              {row.approval_state === 'pending' ? 'Withdraw' : 'End access'}
            </PermittedButton>
          </Group>
        );
      },
    },
  ];
  return <CursorTable label={label} columns={columns} rows={list.items} rowKey={(row) => `${row.client ?? ''}/${row.request_reference}`} {...pagingOf(list)} empty={empty} />;
}
