import { Anchor, Modal, Select, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ERASURE_STATES, type ErasureRequest, type ErasureState } from '#shared/contract/entities/erasure-requests.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { actorName } from '../../lib/actor-name.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useCan } from '../../lib/use-can.ts';
import { useErasureRequests } from './api/erasure-api.ts';
import { dayOf, ERASURE_CHANNEL_LABELS, ERASURE_STATE_WORDS, requesterWords } from './erasure-model.ts';
import { ErasureStateCell } from './erasure-state.tsx';
import { PersonName } from './person-name.tsx';
import { RecordRequestForm } from './record-request-form.tsx';

/** The person, by name, linked to the request's page. */
function RequestLink({ request }: { request: ErasureRequest }) {
  return (
    <Anchor
      renderRoot={(props) => (
        <Link {...props} to="/dashboard/account/erasure-requests/$erasureRequestReference" params={{ erasureRequestReference: request.erasure_request_reference }} />
      )}
    >
      <PersonName request={request} />
    </Anchor>
  );
}

const columns: Column<ErasureRequest>[] = [
  { header: 'Person', value: (row) => row.device_user_name ?? row.device_user_reference, render: (row) => <RequestLink request={row} /> },
  { header: 'State', value: (row) => ERASURE_STATE_WORDS[row.erasure_state].label, render: (row) => <ErasureStateCell request={row} /> },
  { header: 'Who asked', value: (row) => requesterWords(row.requester) },
  { header: 'Received', value: (row) => dayOf(row.received_at) },
  { header: 'Channel', value: (row) => ERASURE_CHANNEL_LABELS[row.channel] },
  {
    header: 'Recorded',
    value: (row) => `${row.created_at} ${actorName(row.created_by_actor, row.created_by)}`,
    render: (row) => (
      <>
        <Text size="sm">{formatDateTime(row.created_at)}</Text>
        <Text size="xs" c="dimmed">
          by {actorName(row.created_by_actor, row.created_by)}
        </Text>
      </>
    ),
  },
];

/**
 * /dashboard/account/erasure-requests: every erasure request (GDPR Art 17) about people in the user's groups, newest
 * first, with its state and its job's progress, and "Record a request".
 */
export function ErasureRequestsScreen() {
  const [state, setState] = useState<ErasureState | undefined>(undefined);
  const [recording, setRecording] = useState(false);
  const canCreate = useCan('erasureRequests:Create');
  const navigate = useNavigate();
  const list = useErasureRequests(state);
  return (
    <>
      <PageHeader
        title="Erasure requests"
        description="A person's request to erase their personal data (GDPR Art 17). Each record about them is kept where the law or a legal hold requires it, and erased otherwise, once a second person approves the decision."
        actions={
          canCreate.allowed && (
            <PermittedButton action="erasureRequests:Create" onClick={() => setRecording(true)}>
              Record a request
            </PermittedButton>
          )
        }
      />
      <Stack gap="md">
        <Select
          label="State"
          w={240}
          data={[{ value: 'All', label: 'Every state' }, ...ERASURE_STATES.map((value) => ({ value, label: ERASURE_STATE_WORDS[value].label }))]}
          value={state ?? 'All'}
          onChange={(value) => setState(value === null || value === 'All' ? undefined : (value as ErasureState))}
          allowDeselect={false}
        />
        <CursorTable
          label="Erasure requests"
          columns={columns}
          rows={list.items}
          rowKey={(row) => row.erasure_request_reference}
          {...pagingOf(list)}
          empty={state === undefined ? 'No erasure request has been recorded about people in your groups.' : 'No erasure request is in this state.'}
        />
      </Stack>
      <Modal opened={recording} onClose={() => setRecording(false)} title="Record an erasure request" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        {recording && (
          <RecordRequestForm
            onDone={(recorded) => {
              setRecording(false);
              void navigate({
                to: '/dashboard/account/erasure-requests/$erasureRequestReference',
                params: { erasureRequestReference: recorded.erasure_request_reference },
              });
            }}
          />
        )}
      </Modal>
    </>
  );
}
