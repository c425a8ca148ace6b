import { Alert, Button, Group, Loader, Paper, Progress, Stack, Text } from '@mantine/core';
import { CatchBoundary } from '@tanstack/react-router';
import type { ErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import { FactList } from '../../components/data/fact-list.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { actorName } from '../../lib/actor-name.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useErasureRequest } from './api/erasure-api.ts';
import { dayOf, ERASURE_CHANNEL_LABELS, hasDecision, progressOf, requesterWords } from './erasure-model.ts';
import { ErasureStateBadge } from './erasure-state.tsx';
import { ErasureReport } from './erasure-report.tsx';
import { usePersonWords } from './person-name.tsx';
import { ReviewPanel } from './review-panel.tsx';

/** A request's page while its route's loader fetches it. */
export function ErasureRequestPending() {
  return <Loader aria-label="Loading the erasure request" />;
}

/** The request could not be fetched: the API's own message (one about a person outside your groups is not found). */
function RequestError({ error }: { error: unknown }) {
  return (
    <>
      <PageHeader title="Erasure request" />
      <Alert variant="default" title="This erasure request could not be loaded">
        {(error instanceof Error && error.message) || 'No such erasure request.'}
      </Alert>
    </>
  );
}

/** /dashboard/account/erasure-requests/$erasureRequestReference: the request, its progress, its review and its report. */
export function ErasureRequestScreen({ reference }: { reference: string }) {
  return (
    <CatchBoundary getResetKey={() => reference} errorComponent={({ error }) => <RequestError error={error} />}>
      <RequestDetail reference={reference} />
    </CatchBoundary>
  );
}

/** The job working on the request, as a bar and in words. */
function RunningJob({ request }: { request: ErasureRequest }) {
  const progress = progressOf(request);
  if (progress === undefined) return null;
  return (
    <Paper withBorder p="md" data-erasure-no-print>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {progress.label}
        </Text>
        <Progress value={progress.percent ?? 100} striped animated aria-label={progress.label} />
        <Text size="xs" c="dimmed">
          This page follows the job as it goes; you may leave it and come back.
        </Text>
      </Stack>
    </Paper>
  );
}

function RequestDetail({ reference }: { reference: string }) {
  const { data: request } = useErasureRequest(reference);
  const person = usePersonWords(request);
  return (
    <>
      <div data-erasure-no-print>
        <PageHeader
          title={`Erasure request: ${person}`}
          description="Every record about the person, looked at with the retention rules and legal holds: what no exception keeps is erased once a second person approves."
          actions={
            hasDecision(request) && (
              <Button variant="default" onClick={() => window.print()}>
                {request.erasure_state === 'Completed' ? 'Print the report' : 'Print the decision'}
              </Button>
            )
          }
        />
      </div>
      <Stack gap="lg">
        <div data-erasure-no-print>
          <FactList
            facts={[
              ['State', <ErasureStateBadge key="state" state={request.erasure_state} />],
              ['Person', person],
              ['Who asked', requesterWords(request.requester)],
              ['Received', `${dayOf(request.received_at)} by ${ERASURE_CHANNEL_LABELS[request.channel].toLowerCase()}`],
              ['Recorded', `${formatDateTime(request.created_at)} by ${actorName(request.created_by_actor, request.created_by)}`],
              ['Note', request.note],
            ]}
          />
        </div>
        {request.error_message !== undefined && (
          <Alert color="red" title="The job met a problem" data-erasure-no-print>
            {request.error_message}
          </Alert>
        )}
        <RunningJob request={request} />
        <div data-erasure-no-print>
          <ReviewPanel request={request} />
        </div>
        {hasDecision(request) ? (
          <ErasureReport request={request} person={person} />
        ) : (
          <Group data-erasure-no-print>
            <Text c="dimmed">The decision shows here once every record about the person has been looked at.</Text>
          </Group>
        )}
      </Stack>
    </>
  );
}
