import { Badge, Stack, Text, Title } from '@mantine/core';
import type { PendingChange } from '#shared/contract/entities/approvals.ts';
import { listApprovals, usePendingChanges } from '../../components/approvals/approvals-api.ts';
import { PendingChangeNote } from '../../components/approvals/pending-change-note.tsx';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { actorName } from '../../lib/actor-name.ts';
import { useCursorList } from '../../lib/api-hooks.ts';
import { formatDateTime } from '../../lib/format.ts';
import { LEGAL_HOLD_TARGET_LABELS } from '../../lib/labels.ts';

/** What a change does, in words: "Release of the hold on device user alice", "Retention policy change". */
export function changeTitle(change: PendingChange): string {
  if (change.kind === 'RetentionPolicyChange') return 'Retention policy change';
  const kind = change.target_type === undefined ? 'person' : LEGAL_HOLD_TARGET_LABELS[change.target_type].toLowerCase();
  return `Release of the hold on ${kind} ${change.target ?? ''}`;
}

const STATUS_COLORS: Record<PendingChange['status'], string> = { Pending: 'yellow', Approved: 'green', Rejected: 'gray', Expired: 'gray' };

const columns: Column<PendingChange>[] = [
  { header: 'Change', value: changeTitle },
  {
    header: 'State',
    value: (row) => row.status,
    render: (row) => (
      <Badge color={STATUS_COLORS[row.status]} variant="light" tt="none">
        {row.status}
      </Badge>
    ),
  },
  { header: 'What it shortens', value: (row) => row.shortens.join('; ') },
  {
    header: 'Requested',
    value: (row) => `${row.requested_at} ${actorName(row.requested_by_actor, row.requested_by)}`,
    render: (row) => (
      <>
        <Text size="sm">{formatDateTime(row.requested_at)}</Text>
        <Text size="xs" c="dimmed">
          by {actorName(row.requested_by_actor, row.requested_by)}
        </Text>
      </>
    ),
  },
  {
    header: 'Decided',
    value: (row) => `${row.decided_at ?? ''} ${row.decided_by === undefined ? '' : actorName(row.decided_by_actor, row.decided_by)}`.trim(),
    render: (row) =>
      row.decided_at === undefined ? (
        <Text size="sm" c="dimmed">
          Expires {formatDateTime(row.expires_at)}
        </Text>
      ) : (
        <>
          <Text size="sm">{formatDateTime(row.decided_at)}</Text>
          <Text size="xs" c="dimmed">
            {row.decided_by === undefined ? 'expired unapproved' : `by ${actorName(row.decided_by_actor, row.decided_by)}`}
            {row.decision_reason === undefined ? '' : `: ${row.decision_reason}`}
          </Text>
        </>
      ),
  },
];

/**
 * Four eyes: every change that shortens a record's life and waits for a second approver (a hold release, a shorter
 * retention period, a removed regulatory rule), with Approve and Reject for those who may; below, every change asked
 * for, as decided.
 */
export function ApprovalsScreen() {
  const pending = usePendingChanges();
  const waiting = pending.data && 'data' in pending.data ? pending.data.data : [];
  const all = useCursorList(listApprovals, { query: {} });
  return (
    <>
      <PageHeader
        title="Approvals"
        description="Releasing a legal hold, shortening a retention period and removing a regulatory rule take effect only when a second person who may make the change approves it. A request expires unapproved after 7 days."
      />
      <Stack gap="sm" mb="lg">
        {waiting.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing awaits a second approver.
          </Text>
        ) : (
          waiting.map((change) => <PendingChangeNote key={change.approval_reference} change={change} what={change.kind === 'LegalHoldRelease' ? 'Release' : 'Shorter retention'} title={changeTitle(change)} />)
        )}
      </Stack>
      <Title order={2} size="h4" mb="xs">
        All requests
      </Title>
      <CursorTable label="Changes awaiting or given a second approval" columns={columns} rows={all.items} rowKey={(row) => row.approval_reference} {...pagingOf(all)} empty="No change has needed a second approver yet." />
    </>
  );
}
