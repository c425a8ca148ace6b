import { Alert, Badge, Group, Paper, Stack, Title } from '@mantine/core';
import { CatchBoundary } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { SupervisionItemDetail } from '#shared/contract/entities/supervision.ts';
import { FactList } from '../../../components/data/fact-list.tsx';
import { PageHeader } from '../../../components/page/page-header.tsx';
import { actorName } from '../../../lib/actor-name.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { PAYLOAD_TYPE_LABELS } from '../../../lib/labels.ts';
import { emailOf } from '../../../lib/session/id-token.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import { useCan } from '../../../lib/use-can.ts';
import { useSupervisedPerson } from '../api/get-device-user.ts';
import { useSupervisionItem } from '../api/get-item.ts';
import { ItemActions } from './item-actions.tsx';
import { ItemHistory } from './item-history.tsx';
import { ItemHits } from './item-hits.tsx';
import { ItemText } from './item-text.tsx';
import { isOwnCommunication, personOf, STATE_COLOURS } from './item-words.ts';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/**
 * One review item's page: the recording's text with the matched terms marked (and, given by the route, the
 * recording's own player or viewer), the hits, the facts, the history and the reviewer's actions.
 *
 * Its route's loader has fetched the item (ensureQueryData with the same options). A refused fetch (404, 403) shows
 * here, under the page's title, from the page's own boundary.
 */
export function SupervisionItemPage({
  itemReference,
  recording,
  history,
}: {
  itemReference: string;
  recording?: ReactNode;
  /** What opens the item's earlier versions (features/history, composed by the route). */
  history?: (item: SupervisionItemDetail) => ReactNode;
}) {
  return (
    <CatchBoundary
      getResetKey={() => itemReference}
      errorComponent={({ error }) => (
        <>
          <PageHeader title="Review item" />
          <Alert color="red" variant="light" title="This review item could not be shown">
            {error instanceof Error && error.message !== '' ? error.message : 'It was not found.'}
          </Alert>
        </>
      )}
    >
      <ItemContent itemReference={itemReference} recording={recording} history={history} />
    </CatchBoundary>
  );
}

function ItemContent({
  itemReference,
  recording,
  history,
}: {
  itemReference: string;
  recording?: ReactNode;
  history?: ((item: SupervisionItemDetail) => ReactNode) | undefined;
}) {
  const { data: item } = useSupervisionItem(itemReference);
  const { state } = useSession();
  const canReadPerson = useCan('deviceUsers:Read');
  const person = useSupervisedPerson(item.device_user_reference, canReadPerson.allowed);
  const isOwn = isOwnCommunication(person.data?.email, emailOf(state.idToken));
  const type = PAYLOAD_TYPE_LABELS[item.payload_type];

  return (
    <>
      <PageHeader
        title={`Review: ${type} of ${personOf(item)}`}
        description={`Recorded ${formatDateTime(item.payload_time)}`}
        actions={
          <Group gap="xs">
            {history?.(item)}
            <Badge size="lg" variant="light" color={STATE_COLOURS[item.state]} tt="none" data-testid="item-state">
              {item.state}
            </Badge>
            {item.is_overdue && (
              <Badge size="lg" color="red" tt="none">
                Overdue
              </Badge>
            )}
          </Group>
        }
      />
      <Stack gap="md">
        <Section title="What was said">
          <ItemText item={item} />
        </Section>
        {recording}
        <Section title="Hits">
          <ItemHits hits={item.hits} />
        </Section>
        <Section title="Review">
          <Stack gap="md">
            <FactList
              facts={[
                ['Person', personOf(item)],
                ['Group', item.group],
                ['Assignee', item.assignee === undefined ? undefined : actorName(item.assignee_actor, item.assignee)],
                ['Raised', formatDateTime(item.raised_at)],
                ['Due', `${formatDateTime(item.due_at)}${item.is_overdue ? ' (overdue)' : ''}`],
                ['Disposition', item.disposition],
                ['Closed by', item.closed_by === undefined ? undefined : actorName(item.closed_by_actor, item.closed_by)],
                ['Closed', item.closed_at === undefined ? undefined : formatDateTime(item.closed_at)],
                ['Note', item.note],
              ]}
            />
            <ItemActions item={item} isOwn={isOwn} />
          </Stack>
        </Section>
        <Section title="History">
          <ItemHistory history={item.history} />
        </Section>
      </Stack>
    </>
  );
}
