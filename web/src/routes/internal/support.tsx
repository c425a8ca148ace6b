import { Badge, Button, Group, Modal, SegmentedControl, Stack, TextInput, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { createFileRoute } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { z } from 'zod/mini';
import { SUPPORT_ACCESS_APPROVAL_STATES } from '#shared/constants/account.ts';
import type { SupportAccess } from '#shared/contract/entities/account-data.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { useSession } from '../../features/session/session-context.tsx';
import { createSupportRequest, supportRequestsByStatus } from '../../features/support/support-requests-api.ts';
import { useCursorList, useEndpointMutation } from '../../lib/api-hooks.ts';
import { formatDateTime } from '../../lib/format.ts';

const SupportSearch = z.object({
  status: z.catch(z.optional(z.enum(SUPPORT_ACCESS_APPROVAL_STATES)), undefined),
});

export const Route = createFileRoute('/internal/support')({
  validateSearch: SupportSearch,
  component: SupportPage,
});

const STATE_COLOURS: Record<string, string> = { approved: 'green', pending: 'yellow', rejected: 'red', revoked: 'red', expired: 'gray', canceled: 'gray' };

/** Staff support access: ask a client for a role for a while, and enter support mode once a client approves. */
function SupportPage() {
  const { status = 'approved' } = Route.useSearch();
  const navigate = Route.useNavigate();
  const { session } = useSession();
  const [opened, { open, close }] = useDisclosure(false);
  const list = useCursorList(supportRequestsByStatus, { params: { approval_status: status }, query: {} });

  const columns: readonly Column<SupportAccess>[] = [
    { header: 'Client', value: (row) => row.client },
    { header: 'Role', value: (row) => row.role },
    { header: 'Reason', value: (row) => row.request_description },
    {
      header: 'State',
      value: (row) => row.approval_state,
      render: (row) => <Badge color={STATE_COLOURS[row.approval_state] ?? 'gray'}>{row.approval_state}</Badge>,
    },
    { header: 'Expires', value: (row) => row.approval_expiry ?? row.requested_expiry, render: (row) => formatDateTime(row.approval_expiry ?? row.requested_expiry) },
    {
      header: 'Action',
      value: () => '',
      render: (row) =>
        row.approval_state === 'approved' && row.client !== undefined ? (
          <Button size="xs" onClick={() => void session.enterSupportMode(row.request_reference, row.client as string)}>
            Enter support mode
          </Button>
        ) : null,
    },
  ];

  return (
    <>
      <PageHeader
        title="Support access"
        description="Requests to act inside a client's portal. A client user must approve a request before it can be used."
        actions={<Button onClick={open}>Request access</Button>}
      />
      <Group mb="sm">
        <SegmentedControl
          aria-label="Approval state"
          value={status}
          onChange={(value) => void navigate({ search: { status: value as SupportAccess['approval_state'] } })}
          data={SUPPORT_ACCESS_APPROVAL_STATES.map((state) => ({ value: state, label: state[0]!.toUpperCase() + state.slice(1) }))}
        />
      </Group>
      <CursorTable
        label="Support access requests"
        columns={columns}
        rows={list.items}
        rowKey={(row) => `${row.client ?? ''}/${row.request_reference}`}
        {...pagingOf(list)}
        empty={`No ${status} requests.`}
      />
      <Modal opened={opened} onClose={close} title="Request support access" closeButtonProps={{ 'aria-label': 'Close' }}>
        <RequestForm onDone={close} />
      </Modal>
    </>
  );
}

function RequestForm({ onDone }: { onDone: () => void }) {
  const create = useEndpointMutation(createSupportRequest, { invalidates: [supportRequestsByStatus] });
  const [client, setClient] = useState('');
  const [role, setRole] = useState('');
  const [reason, setReason] = useState('');
  const [hours, setHours] = useState('4');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expiry = new Date(Date.now() + Math.max(1, Number(hours) || 1) * 3_600_000).toISOString();
    create.mutate(
      { client: client.trim(), body: { role: role.trim(), request_description: reason.trim(), requested_expiry: expiry } },
      { onSuccess: onDone },
    );
  };

  return (
    <form onSubmit={submit}>
      <Stack>
        <TextInput label="Client" value={client} onChange={(event) => setClient(event.currentTarget.value)} required />
        <TextInput label="Role" description="The client's role to act with" value={role} onChange={(event) => setRole(event.currentTarget.value)} required />
        <Textarea label="Reason" value={reason} onChange={(event) => setReason(event.currentTarget.value)} required maxLength={1000} />
        <TextInput label="For how many hours" type="number" min={1} max={720} value={hours} onChange={(event) => setHours(event.currentTarget.value)} />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Send request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
