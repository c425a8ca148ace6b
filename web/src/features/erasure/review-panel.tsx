import { Alert, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { ERASURE_REASON_MAX, type ErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { useSession } from '../../lib/session/session-context.tsx';
import { useCan } from '../../lib/use-can.ts';
import { useReviewErasureRequest } from './api/erasure-api.ts';
import { recordsWord, reviewOfferFor, totalsOf } from './erasure-model.ts';
import { formatNumber } from '../../lib/format.ts';

type Decision = 'Approve' | 'Reject';

/**
 * The second person's review of a decided request (four eyes): Approve (the erasure runs) or Reject, with a reason.
 * The person who recorded the request, and a role that may not review, are told why instead of being offered it.
 */
export function ReviewPanel({ request }: { request: ErasureRequest }) {
  const { state } = useSession();
  const mayReview = useCan('erasureRequests:Review');
  const offer = reviewOfferFor(request, state.user?.reference, mayReview.allowed);
  const review = useReviewErasureRequest();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState<string[]>([]);

  if (offer.kind === 'none') return null;
  if (offer.kind === 'refused') {
    return (
      <Alert color="yellow" title="Awaiting review by a second person" data-testid="erasure-review">
        {offer.why}
      </Alert>
    );
  }

  const totals = totalsOf(request);
  const send = (decision: Decision) => {
    if (reason.trim() === '') {
      setMissing(['body.reason: Give the reason for your decision']);
      return;
    }
    setMissing([]);
    review.mutate(
      { params: { erasure_request_reference: request.erasure_request_reference }, body: { decision, reason: reason.trim() } },
      {
        onSuccess: () =>
          notifySaved(decision === 'Approve' ? 'Approved: the erasure has started.' : 'Rejected: nothing is erased.'),
      },
    );
  };
  const errors = formErrorsFor({ localLines: missing, error: review.error, paths: { reason: 'body.reason', decision: 'body.decision' } });
  return (
    <Paper withBorder p="md" data-testid="erasure-review">
      <form aria-label="Review the decision" noValidate onSubmit={(event) => event.preventDefault()}>
        <Stack gap="sm">
          <Title order={2} size="h4">
            Review the decision
          </Title>
          <Text size="sm">
            Approving erases the {recordsWord(totals.erased)} no exception keeps; {formatNumber(totals.kept)} {totals.kept === 1 ? 'is' : 'are'} kept as the decision says.
            Erasure cannot be undone. Rejecting erases nothing.
          </Text>
          <FormErrorSummary lines={errors.general} />
          <Textarea
            label="Reason"
            description="Why you approve or reject it; it is kept with the request."
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            maxLength={ERASURE_REASON_MAX}
            autosize
            minRows={2}
            error={errors.field.reason}
            required
          />
          <Group gap="xs">
            <Button color="red.9" loading={review.isPending && review.variables.body.decision === 'Approve'} disabled={review.isPending} onClick={() => send('Approve')}>
              Approve and erase
            </Button>
            <Button variant="default" loading={review.isPending && review.variables.body.decision === 'Reject'} disabled={review.isPending} onClick={() => send('Reject')}>
              Reject
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
