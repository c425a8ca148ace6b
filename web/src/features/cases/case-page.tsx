import { Alert, Anchor, Badge, Group, List, Loader, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { CatchBoundary, Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { CaseHoldState } from '#shared/constants/cases.ts';
import type { Case, CaseHold } from '#shared/contract/entities/cases.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { errorLinesOf } from '../../components/data/error-lines.tsx';
import { FactList } from '../../components/data/fact-list.tsx';
import { ConfirmDialog } from '../../components/forms/confirm-dialog.tsx';
import { notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { actorName } from '../../lib/actor-name.ts';
import { formatDateTime } from '../../lib/format.ts';
import { PAYLOAD_TYPE_LABELS } from '../../lib/labels.ts';
import { useCan } from '../../lib/use-can.ts';
import { useCase, useCasePeople, useCloseCase } from './api/cases-api.ts';
import { periodWords, personName } from './case-people.ts';
import { TeamForm } from './team-form.tsx';

/** What became of each hold the case placed, in words. */
const HOLD_STATE_WORDS: Record<CaseHoldState, { label: string; color: string }> = {
  Active: { label: 'Held', color: 'red' },
  Released: { label: 'Released', color: 'gray' },
  AwaitingApproval: { label: 'Release awaiting a second approver', color: 'yellow' },
  KeptByOther: { label: 'Kept: someone else holds this person too', color: 'orange' },
  AlreadyReleased: { label: 'Released by someone else before the case closed', color: 'gray' },
};

/** A case's page while its route's loader fetches it. */
export function CasePending() {
  return <Loader aria-label="Loading the case" />;
}

/** The case could not be fetched: the API's own message (a case outside your teams is simply not found). */
function CaseError({ error }: { error: unknown }) {
  return (
    <>
      <PageHeader title="Case" />
      <Alert variant="default" title="This case could not be loaded">
        {(error instanceof Error && error.message) || 'No such case.'}
      </Alert>
    </>
  );
}

/** /dashboard/cases/$caseRef: the case, its custodians, period, types, team and holds; Close with a confirmation. */
/** `productions`: the case's Productions panel, another feature's, shown only once the case itself is readable. */
export function CaseScreen({ caseRef, productions }: { caseRef: string; productions?: ReactNode }) {
  return (
    <CatchBoundary getResetKey={() => caseRef} errorComponent={({ error }) => <CaseError error={error} />}>
      <CaseDetail caseRef={caseRef} productions={productions} />
    </CatchBoundary>
  );
}

function HoldsTable({ holds }: { holds: readonly CaseHold[] }) {
  if (holds.length === 0) return <Text c="dimmed">The case placed no legal hold.</Text>;
  return (
    <Table aria-label="Holds the case placed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Device user</Table.Th>
          <Table.Th>Placed</Table.Th>
          <Table.Th>State</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {holds.map((hold) => (
          <Table.Tr key={hold.target}>
            <Table.Td>
              <Anchor renderRoot={(props) => <Link {...props} to="/dashboard/account/legal-holds" search={{ show: 'all', target: hold.target }} />}>{hold.target}</Anchor>
            </Table.Td>
            <Table.Td>{formatDateTime(hold.placed_at)}</Table.Td>
            <Table.Td>
              <Badge color={HOLD_STATE_WORDS[hold.state].color} variant="light" tt="none" miw="max-content">
                {HOLD_STATE_WORDS[hold.state].label}
              </Badge>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function CaseDetail({ caseRef, productions }: { caseRef: string; productions: ReactNode }) {
  const { data: entry } = useCase(caseRef);
  const { people } = useCasePeople();
  const named = (reference: string) => personName(people.find((person) => person.user_reference === reference), reference);
  const close = useCloseCase();
  const canClose = useCan('cases:Close');
  const canUpdate = useCan('cases:Update');
  const [closing, setClosing] = useState(false);
  const [changingTeam, setChangingTeam] = useState(false);
  const awaiting = entry.holds.filter((hold) => hold.state === 'AwaitingApproval');

  const confirmClose = () =>
    close.mutate(
      { params: { case_ref: caseRef } },
      {
        onSuccess: (closed: Case) => {
          setClosing(false);
          notifySaved(`Case “${closed.title}” closed.`);
        },
      },
    );

  return (
    <>
      <PageHeader
        title={entry.title}
        description={entry.description === '' ? undefined : entry.description}
        actions={
          entry.state === 'Open' &&
          canClose.allowed && (
            <PermittedButton action="cases:Close" color="red" variant="default" onClick={() => setClosing(true)}>
              Close case
            </PermittedButton>
          )
        }
      />
      <Stack gap="lg">
        {awaiting.length > 0 && (
          <Alert color="yellow" title="Hold releases awaiting a second approver">
            Closing the case asked for the release of {awaiting.length === 1 ? 'one hold' : `${awaiting.length} holds`} ({awaiting.map((hold) => hold.target).join(', ')}). Each
            stays in force until a second person approves it on the{' '}
            <Anchor renderRoot={(props) => <Link {...props} to="/dashboard/account/approvals" />}>approvals</Anchor> page.
          </Alert>
        )}
        <FactList
          facts={[
            ['State', <Badge key="state" color={entry.state === 'Open' ? 'blue' : 'gray'} variant="light" tt="none">{entry.state}</Badge>],
            ['Period', periodWords(entry.period)],
            ['Payload types', entry.payload_types.map((type) => PAYLOAD_TYPE_LABELS[type]).join(', ')],
            ['Counterparty numbers', entry.counterparty_numbers.join(', ')],
            ['Collect and hold', entry.collect_and_hold ? 'Yes: opening the case held its custodian device users' : 'No'],
            ['Support staff may see it', entry.support_may_view ? 'Yes' : 'No'],
            ['Opened', `${formatDateTime(entry.created_at)} by ${actorName(entry.created_by_actor, entry.created_by)}`],
            ['Closed', entry.closed_at === undefined ? '' : `${formatDateTime(entry.closed_at)} by ${actorName(entry.closed_by_actor, entry.closed_by ?? '')}`],
          ]}
        />
        <Paper withBorder p="md">
          <Title order={3} size="h4" mb="sm">
            Custodians
          </Title>
          <Group align="flex-start" grow>
            <div>
              <Text fw={500} mb={4}>
                Device users
              </Text>
              <List aria-label="Custodian device users">
                {entry.custodians.device_users.map((user) => (
                  <List.Item key={user}>
                    <Anchor renderRoot={(props) => <Link {...props} to="/dashboard/devices/users/$deviceUserReference" params={{ deviceUserReference: user }} />}>{user}</Anchor>
                  </List.Item>
                ))}
              </List>
              {entry.custodians.device_users.length === 0 && <Text c="dimmed">None</Text>}
            </div>
            <div>
              <Text fw={500} mb={4}>
                Portal users
              </Text>
              <List aria-label="Custodian portal users">
                {entry.custodians.portal_users.map((user) => (
                  <List.Item key={user}>{named(user)}</List.Item>
                ))}
              </List>
              {entry.custodians.portal_users.length === 0 && <Text c="dimmed">None</Text>}
            </div>
          </Group>
        </Paper>
        <Paper withBorder p="md">
          <Group justify="space-between" mb="sm">
            <Title order={3} size="h4">
              Team
            </Title>
            {entry.state === 'Open' && canUpdate.allowed && (
              <PermittedButton action="cases:Update" size="xs" variant="default" onClick={() => setChangingTeam(true)}>
                Change team
              </PermittedButton>
            )}
          </Group>
          <Text size="sm" c="dimmed" mb="xs">
            Only these people see the case{entry.support_may_view ? ', and support staff in support mode' : ''}.
          </Text>
          <List aria-label="Case team">
            {entry.team.map((member) => (
              <List.Item key={member}>{named(member)}</List.Item>
            ))}
          </List>
        </Paper>
        <Paper withBorder p="md">
          <Title order={3} size="h4" mb="sm">
            Legal holds the case placed
          </Title>
          <HoldsTable holds={entry.holds} />
        </Paper>
        {productions}
      </Stack>
      <Modal opened={changingTeam} onClose={() => setChangingTeam(false)} title="Change the case team" closeButtonProps={{ 'aria-label': 'Close' }}>
        <TeamForm entry={entry} onDone={() => setChangingTeam(false)} />
      </Modal>
      <ConfirmDialog
        opened={closing}
        title={`Close “${entry.title}”`}
        message={
          entry.holds.length === 0
            ? 'The case is kept as it is and can no longer be changed.'
            : 'The case is kept as it is and can no longer be changed. Each legal hold the case placed is released (after a second approver agrees), unless someone else holds the same person.'
        }
        lines={close.error ? errorLinesOf(close.error) : []}
        busy={close.isPending}
        confirmLabel="Close case"
        confirmColor="red.9"
        onCancel={() => setClosing(false)}
        onConfirm={confirmClose}
      />
    </>
  );
}
