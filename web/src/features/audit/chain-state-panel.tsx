import { Alert, Badge, Code, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ChainState } from '#shared/contract/entities/activity.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useCan } from '../../lib/use-can.ts';
import { chainVerdict } from './chain-verdict.ts';
import { useChainState } from './api/get-chain-state.ts';

/** The state of both audit chains: verified up to which record and when, and what still waits to be linked. */
export function ChainStatePanel() {
  const allowed = useCan('activities:List').allowed;
  const chain = useChainState(allowed);
  if (!allowed) return null;
  if (chain.error && chain.data === undefined) {
    return (
      <Alert color="red" title="The audit chain's state could not be loaded">
        {chain.error.message}
      </Alert>
    );
  }
  return (
    <section aria-labelledby="chain-state-title">
      <Title order={2} size="h4" id="chain-state-title" mb="xs">
        Audit chain
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <TrailState title="Portal users and apps" state={chain.data?.user_activity} />
        <TrailState title="Devices" state={chain.data?.device_activity} />
      </SimpleGrid>
    </section>
  );
}

function TrailState({ title, state }: { title: string; state: ChainState | undefined }) {
  if (state === undefined) {
    return (
      <Paper withBorder p="md">
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      </Paper>
    );
  }
  const verdict = chainVerdict(state, Date.now());
  return (
    <Paper withBorder p="md">
      <Stack gap={6}>
        <Group justify="space-between">
          <Text fw={600}>{title}</Text>
          <Badge miw="max-content" color={verdict.colour} variant="light" tt="none">
            {verdict.label}
          </Badge>
        </Group>
        <Text size="sm">{verdict.sentence}</Text>
        <Text size="sm">
          {formatNumber(state.linked_count)} records linked (head #{formatNumber(state.head_sequence)}); {formatNumber(state.pending_count)} waiting
          {state.oldest_pending_at !== null ? ` since ${formatDateTime(state.oldest_pending_at)}` : ''}.
        </Text>
        <Text size="sm">
          Last signed checkpoint: {state.last_checkpoint_at === null ? 'none yet' : formatDateTime(state.last_checkpoint_at)}
        </Text>
        <Text size="xs" c="dimmed">
          Head hash <Code style={{ wordBreak: 'break-all' }}>{state.head_hash}</Code>
        </Text>
      </Stack>
    </Paper>
  );
}
