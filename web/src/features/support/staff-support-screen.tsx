import { Group, Modal, SegmentedControl, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { SUPPORT_ACCESS_APPROVAL_STATES, type SupportAccessApprovalState } from '#shared/constants/account.ts';
import type { SupportAccess } from '#shared/contract/entities/account-data.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { RequestAccessForm } from './request-access-form.tsx';
import { StaffRequestsTable } from './staff-requests-table.tsx';
import { STATE_LABELS } from './support-labels.ts';
import { usePendingCount, useStaffRequests } from './api/list-staff-requests.ts';

/**
 * Staff support access across clients: ask a client for a role, and enter support mode once it approves. While any
 * request waits for a decision the list refreshes by itself, so an approval shows without a reload.
 */
export function StaffSupportScreen({
  state,
  onState,
  onEnter,
}: {
  state: SupportAccessApprovalState;
  onState: (state: SupportAccessApprovalState) => void;
  onEnter: (request: SupportAccess, client: string) => void;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const pending = usePendingCount();
  const list = useStaffRequests(state, pending);
  return (
    <>
      <PageHeader
        title="Support access"
        description="Requests to act inside a client's portal. A client user must approve a request before it can be used."
        actions={
          <PermittedButton action="internal:RequestSupportAccess" onClick={open}>
            Request access
          </PermittedButton>
        }
      />
      <Group mb="sm" gap="md">
        <SegmentedControl
          aria-label="Approval state"
          value={state}
          onChange={(value) => onState(value as SupportAccessApprovalState)}
          data={SUPPORT_ACCESS_APPROVAL_STATES.map((value) => ({ value, label: STATE_LABELS[value] }))}
        />
        {pending > 0 && (
          <Text size="sm" c="dimmed" aria-live="polite">
            {pending} {pending === 1 ? 'request waits' : 'requests wait'} for a client&rsquo;s decision; this list refreshes by itself.
          </Text>
        )}
      </Group>
      <StaffRequestsTable list={list} onEnter={onEnter} showClient label="Support access requests" empty={`No ${STATE_LABELS[state].toLowerCase()} requests.`} />
      <Modal opened={opened} onClose={close} title="Request support access" closeButtonProps={{ 'aria-label': 'Close' }}>
        <RequestAccessForm onDone={close} />
      </Modal>
    </>
  );
}
