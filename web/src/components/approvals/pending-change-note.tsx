import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import type { PendingChange } from '#shared/contract/entities/approvals.ts';
import { actorName } from '../../lib/actor-name.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useSession } from '../../lib/session/session-context.tsx';
import { useCan } from '../../lib/use-can.ts';
import { notifySaved } from '../forms/form-errors.tsx';
import { useApproveChange, useRejectChange } from './approvals-api.ts';

/** "Release requested by Dana Admin (admin@demo.test) on 29 Nov 2026, 09:12, awaiting a second approver." */
export function pendingChangeSentence(change: PendingChange, what: string): string {
  return `${what} requested by ${actorName(change.requested_by_actor, change.requested_by)} on ${formatDateTime(change.requested_at)}, awaiting a second approver.`;
}

/**
 * A change awaiting a second approver, shown where it will apply: who asked and when, what it shortens, when it
 * expires, and Approve / Reject for someone else holding the change's own permission. The requester sees no Approve
 * (the server refuses their own approval) and may withdraw the request; a role without the permission sees the note only.
 */
export function PendingChangeNote({
  change,
  what,
  title = 'Awaiting a second approver',
  invalidates = [],
}: {
  change: PendingChange;
  /** The change in a word or two, to begin the sentence: "Release", "Shorter retention". */
  what: string;
  title?: string;
  invalidates?: readonly Endpoint[];
}) {
  const { state } = useSession();
  const isRequester = state.user?.reference === change.requested_by;
  const canApprove = useCan([change.action, 'approvals:Approve']);
  const canReject = useCan([change.action, 'approvals:Reject']);
  const mayWithdraw = useCan('approvals:Reject');
  const approve = useApproveChange(invalidates);
  const reject = useRejectChange();
  const error = approve.error ?? reject.error;
  const params = { params: { approval_reference: change.approval_reference } };
  return (
    <Alert color="yellow" title={title} data-testid="pending-change">
      <Stack gap="xs">
        <Text size="sm">{pendingChangeSentence(change, what)}</Text>
        {change.shortens.length > 0 && (
          <List size="sm">
            {change.shortens.map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        )}
        <Text size="xs" c="dimmed">
          Nothing changes until someone else who may make this change approves it. Unapproved, it expires {formatDateTime(change.expires_at)}.
        </Text>
        {error && (
          <Text size="sm" c="red">
            {error.message}
          </Text>
        )}
        <Group gap="xs">
          {!isRequester && canApprove.allowed && (
            <Button
              size="xs"
              color="red.9"
              loading={approve.isPending}
              onClick={() => approve.mutate(params, { onSuccess: () => notifySaved(`Approved: ${what.toLowerCase()} applied.`) })}
            >
              Approve
            </Button>
          )}
          {!isRequester && canReject.allowed && (
            <Button size="xs" variant="default" loading={reject.isPending} onClick={() => reject.mutate({ ...params, body: {} }, { onSuccess: () => notifySaved('Rejected: nothing changed.') })}>
              Reject
            </Button>
          )}
          {isRequester && mayWithdraw.allowed && (
            <Button size="xs" variant="default" loading={reject.isPending} onClick={() => reject.mutate({ ...params, body: {} }, { onSuccess: () => notifySaved('Request withdrawn: nothing changed.') })}>
              Withdraw request
            </Button>
          )}
        </Group>
      </Stack>
    </Alert>
  );
}
