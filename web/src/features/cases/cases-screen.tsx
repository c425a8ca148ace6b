import { Anchor, Badge, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { CaseState } from '#shared/constants/cases.ts';
import type { Case } from '#shared/contract/entities/cases.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useCan } from '../../lib/use-can.ts';
import { useCases } from './api/cases-api.ts';
import { NewCaseForm } from './case-form.tsx';
import { periodWords } from './case-people.ts';

/** A case's title, linked to its page. */
function CaseLink({ entry }: { entry: Case }) {
  return (
    <Anchor renderRoot={(props) => <Link {...props} to="/dashboard/cases/$caseRef" params={{ caseRef: entry.case_ref }} />}>{entry.title}</Anchor>
  );
}

const columns: Column<Case>[] = [
  { header: 'Case', value: (row) => row.title, render: (row) => <CaseLink entry={row} /> },
  {
    header: 'State',
    value: (row) => row.state,
    render: (row) => (
      <Badge color={row.state === 'Open' ? 'blue' : 'gray'} variant="light" tt="none">
        {row.state}
      </Badge>
    ),
  },
  { header: 'Custodians', value: (row) => row.custodians.device_users.length + row.custodians.portal_users.length },
  { header: 'Period', value: (row) => periodWords(row.period) },
  { header: 'Holds placed', value: (row) => row.holds.length },
  { header: 'Team', value: (row) => row.team.length },
  { header: 'Opened', value: (row) => row.created_at, render: (row) => formatDateTime(row.created_at) },
];

/** /dashboard/cases: the cases of the user's teams (nobody else's), Open or Closed, and "New case". */
export function CasesScreen() {
  const [state, setState] = useState<CaseState | 'All'>('Open');
  const [creating, setCreating] = useState(false);
  const canCreate = useCan('cases:Create');
  const navigate = useNavigate();
  const list = useCases(state === 'All' ? undefined : state);
  return (
    <>
      <PageHeader
        title="Cases"
        description="A case names the people, counterparties, period and kinds of record a matter is about. Only its team sees it."
        actions={
          canCreate.allowed && (
            <PermittedButton action="cases:Create" onClick={() => setCreating(true)}>
              New case
            </PermittedButton>
          )
        }
      />
      <Stack gap="md">
        <div>
          <Text size="sm" fw={500} id="cases-state" mb={4}>
            Show
          </Text>
          <SegmentedControl
            aria-labelledby="cases-state"
            value={state}
            onChange={(value) => setState(value as CaseState | 'All')}
            data={[
              { value: 'Open', label: 'Open' },
              { value: 'Closed', label: 'Closed' },
              { value: 'All', label: 'All' },
            ]}
          />
        </div>
        <CursorTable
          label="Cases"
          columns={columns}
          rows={list.items}
          rowKey={(row) => row.case_ref}
          {...pagingOf(list)}
          empty="No case of yours. A case shows here once you are on its team."
        />
      </Stack>
      <Modal opened={creating} onClose={() => setCreating(false)} title="New case" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        <NewCaseForm
          onDone={(opened) => {
            setCreating(false);
            void navigate({ to: '/dashboard/cases/$caseRef', params: { caseRef: opened.case_ref } });
          }}
        />
      </Modal>
    </>
  );
}
