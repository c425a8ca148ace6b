import { Button, Group, Select, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { SupportAccess } from '#shared/contract/entities/account-data.ts';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useDecideRequest } from './api/decide-request.ts';
import { approvalChoices, approvalExpiryOf, durationLabel } from './support-labels.ts';
import { actorName } from '../../lib/actor-name.ts';

export type Decision = 'approve' | 'reject' | 'revoke';

const DONE: Record<Decision, string> = { approve: 'approved', reject: 'rejected', revoke: 'revoked' };
const STATE: Record<Decision, 'approved' | 'rejected' | 'revoked'> = { approve: 'approved', reject: 'rejected', revoke: 'revoked' };

/**
 * A tenant user's decision on one request: approve until the requested expiry or sooner, reject with a reason, or
 * revoke an approval (the reason is optional and kept with the request).
 */
export function DecisionForm({ request, decision, onDone }: { request: SupportAccess; decision: Decision; onDone: () => void }) {
  const decide = useDecideRequest();
  const [now] = useState(() => Date.now());
  const choices = approvalChoices(request.requested_expiry, now);
  const [choice, setChoice] = useState('requested');
  const [reason, setReason] = useState('');
  const [localLines, setLocalLines] = useState<string[]>([]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (decision === 'reject' && reason.trim() === '') {
      setLocalLines(['body.rejection_reason: Say why, so the requester knows what to do instead']);
      return;
    }
    setLocalLines([]);
    const expiry = decision === 'approve' ? approvalExpiryOf(choice, Date.now()) : undefined;
    const body = {
      approval_state: STATE[decision],
      ...(expiry === undefined ? {} : { approval_expiry: expiry }),
      ...(decision !== 'approve' && reason.trim() !== '' ? { rejection_reason: reason.trim() } : {}),
    };
    decide.mutate(
      { params: { request_reference: request.request_reference }, body },
      {
        onSuccess: () => {
          notifySaved(`Support access ${DONE[decision]}.`);
          onDone();
        },
      },
    );
  };

  const errors = formErrorsFor({ localLines, error: decide.error, paths: { expiry: 'body.approval_expiry', reason: 'body.rejection_reason' } });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          <strong>{request.requested_by === undefined ? 'Provider staff' : actorName(request.requested_by_actor, request.requested_by)}</strong> asks for the role <strong>{request.role}</strong>
          {request.request_description ? `: “${request.request_description}”` : '.'}
        </Text>
        <FormErrorSummary lines={errors.general} />
        {decision === 'approve' && (
          <Select
            label="Access until"
            description={`Requested until ${formatDateTime(request.requested_expiry)}. You may give less.`}
            data={choices.map((option) => ({
              value: option.value,
              label: option.hours === undefined ? `As requested (${formatDateTime(request.requested_expiry)})` : `${durationLabel(option.hours)} from now`,
            }))}
            value={choice}
            allowDeselect={false}
            onChange={(value) => setChoice(value ?? 'requested')}
            error={errors.field.expiry ?? (choices.length === 0 ? 'The requested expiry has passed; the request can no longer be approved.' : undefined)}
            disabled={choices.length === 0}
          />
        )}
        {decision !== 'approve' && (
          <Textarea
            label="Reason"
            description={decision === 'reject' ? 'Shown to the requester.' : 'Optional; kept with the request.'}
            required={decision === 'reject'}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            maxLength={1000}
            autosize
            minRows={2}
            error={errors.field.reason}
            data-autofocus
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" color={decision === 'approve' ? undefined : 'red.9'} loading={decide.isPending} disabled={decision === 'approve' && choices.length === 0}>
            {decision === 'approve' ? 'Approve' : decision === 'reject' ? 'Reject' : 'Revoke'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
