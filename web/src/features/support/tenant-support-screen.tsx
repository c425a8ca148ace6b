import { Badge, Group, Modal, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import type { SupportAccessApprovalState } from '#shared/constants/account.ts';
import type { SupportAccess } from '#shared/contract/entities/account-data.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { DecisionForm, type Decision } from './decision-form.tsx';
import { STATE_COLOURS, STATE_LABELS } from './support-labels.ts';
import { useTenantRequests } from './api/list-tenant-requests.ts';
import { actorName } from '../../lib/actor-name.ts';

export type TenantSupportView = 'pending' | 'approved' | 'history';

const VIEW_STATE: Record<TenantSupportView, SupportAccessApprovalState | undefined> = { pending: 'pending', approved: 'approved', history: undefined };
const EMPTY: Record<TenantSupportView, string> = {
  pending: 'No requests wait for a decision.',
  approved: 'No support access is approved at the moment.',
  history: 'No support access has been requested yet.',
};
const TITLES: Record<Decision, string> = { approve: 'Approve support access', reject: 'Reject support access', revoke: 'Revoke support access' };

/** Requests from the provider's staff to act inside this portal: decide on pending ones, revoke approvals, see the history. */
export function TenantSupportScreen({ view, onView }: { view: TenantSupportView; onView: (view: TenantSupportView) => void }) {
  const [deciding, setDeciding] = useState<{ request: SupportAccess; decision: Decision } | undefined>(undefined);
  return (
    <>
      <PageHeader
        title="Support access"
        description="The provider's staff ask for a role in your portal for a while. Nothing happens until someone here approves; an approval can be revoked at any time."
      />
      <Tabs value={view} onChange={(value) => onView((value ?? 'pending') as TenantSupportView)} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="pending">Waiting for a decision</Tabs.Tab>
          <Tabs.Tab value="approved">Approved</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
        </Tabs.List>
        {(['pending', 'approved', 'history'] as const).map((tab) => (
          <Tabs.Panel key={tab} value={tab}>
            <RequestList view={tab} onDecide={(request, decision) => setDeciding({ request, decision })} />
          </Tabs.Panel>
        ))}
      </Tabs>
      <Modal opened={deciding !== undefined} onClose={() => setDeciding(undefined)} title={deciding ? TITLES[deciding.decision] : ''} closeButtonProps={{ 'aria-label': 'Close' }}>
        {deciding && <DecisionForm request={deciding.request} decision={deciding.decision} onDone={() => setDeciding(undefined)} />}
      </Modal>
    </>
  );
}

function RequestList({ view, onDecide }: { view: TenantSupportView; onDecide: (request: SupportAccess, decision: Decision) => void }) {
  const list = useTenantRequests(VIEW_STATE[view]);
  const columns: Column<SupportAccess>[] = [
    { header: 'Requested by', value: (row) => (row.requested_by === undefined ? '' : actorName(row.requested_by_actor, row.requested_by)) },
    { header: 'Role', value: (row) => row.role },
    { header: 'Reason', value: (row) => row.request_description ?? '' },
    { header: 'Asked', value: (row) => row.created_at ?? '', render: (row) => formatDateTime(row.created_at) },
    {
      header: view === 'approved' ? 'Until' : 'Requested until',
      value: (row) => (view === 'approved' ? (row.approval_expiry ?? row.requested_expiry) : row.requested_expiry),
      render: (row) => formatDateTime(view === 'approved' ? (row.approval_expiry ?? row.requested_expiry) : row.requested_expiry),
    },
  ];
  if (view === 'history') {
    columns.push(
      {
        header: 'State',
        value: (row) => STATE_LABELS[row.approval_state],
        render: (row) => (
          <Badge miw="max-content" color={STATE_COLOURS[row.approval_state]} variant="light" tt="none">
            {STATE_LABELS[row.approval_state]}
          </Badge>
        ),
      },
      { header: 'Decided by', value: (row) => (row.approved_by === undefined ? '' : actorName(row.approved_by_actor, row.approved_by)) },
      { header: 'Note', value: (row) => row.rejection_reason ?? '' },
    );
  } else {
    columns.push({
      header: 'Actions',
      value: () => '',
      render: (row) =>
        view === 'pending' ? (
          <Group gap="xs" wrap="nowrap">
            <PermittedButton action="supportAccess:Decide" size="xs" onClick={() => onDecide(row, 'approve')} aria-label={`Approve request by ${row.requested_by ?? 'staff'} for ${row.role}`}>
              Approve
            </PermittedButton>
            <PermittedButton action="supportAccess:Decide" size="xs" variant="default" onClick={() => onDecide(row, 'reject')} aria-label={`Reject request by ${row.requested_by ?? 'staff'} for ${row.role}`}>
              Reject
            </PermittedButton>
          </Group>
        ) : (
          <PermittedButton action="supportAccess:Decide" size="xs" variant="default" onClick={() => onDecide(row, 'revoke')} aria-label={`Revoke access of ${row.requested_by ?? 'staff'} as ${row.role}`}>
            Revoke
          </PermittedButton>
        ),
    });
  }
  return (
    <>
      {view === 'pending' && (
        <Text size="sm" c="dimmed" mb="xs">
          This list refreshes by itself while it is open.
        </Text>
      )}
      <CursorTable label={`Support access: ${view}`} columns={columns} rows={list.items} rowKey={(row) => row.request_reference} {...pagingOf(list)} empty={EMPTY[view]} />
    </>
  );
}
