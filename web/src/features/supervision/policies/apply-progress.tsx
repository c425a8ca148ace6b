import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import type { SupervisionApplyRun } from '#shared/contract/entities/supervision.ts';
import { actorName } from '../../../lib/actor-name.ts';
import { formatDate, formatDateTime, formatNumber } from '../../../lib/format.ts';
import { APPLY_STATE_LABELS } from './policy-labels.ts';

const STATE_COLOURS = { Running: 'blue', Completed: 'green', Failed: 'red' } as const;

/** "Scanned 1,204 recordings, raised 17": the run's counts in words. */
export function applyCounts(run: SupervisionApplyRun): string {
  return `Scanned ${formatNumber(run.scanned)} ${run.scanned === 1 ? 'recording' : 'recordings'}, raised ${formatNumber(run.raised)} ${run.raised === 1 ? 'item' : 'items'}`;
}

/**
 * An apply run's progress. The run does not know in advance how many recordings the period holds, so the bar shows
 * what is known: the share of the scanned recordings that raised an item, moving (striped) while it runs.
 */
export function ApplyProgress({ run, compact = false }: { run: SupervisionApplyRun; compact?: boolean }) {
  const running = run.state === 'Running';
  const raisedShare = run.scanned === 0 ? 0 : Math.min(100, (run.raised / run.scanned) * 100);
  const label = `Apply to ${formatDate(run.from)} – ${formatDate(run.to)}`;
  return (
    <Stack gap={4} miw={compact ? 180 : undefined}>
      <Group gap="xs" wrap="nowrap">
        <Badge color={STATE_COLOURS[run.state]} variant="light" tt="none">
          {APPLY_STATE_LABELS[run.state]}
        </Badge>
        <Text size="xs">{compact ? `${formatDate(run.from)} – ${formatDate(run.to)}` : label}</Text>
      </Group>
      <Progress.Root size="md" aria-label={`${label}: ${applyCounts(run)}`}>
        <Progress.Section value={raisedShare} color="orange" animated={running} striped={running} aria-label={`${label}: raised`} />
        <Progress.Section value={100 - raisedShare} color={running ? 'blue' : STATE_COLOURS[run.state]} animated={running} striped={running} aria-label={`${label}: scanned`} />
      </Progress.Root>
      <Text size="xs" aria-live={running ? 'polite' : undefined}>
        {applyCounts(run)}
        {running ? '…' : '.'}
      </Text>
      {!compact && (
        <Text size="xs" c="dimmed">
          Started {formatDateTime(run.started_at)} by {actorName(run.started_by_actor, run.started_by)}
          {run.finished_at === undefined ? '' : `, finished ${formatDateTime(run.finished_at)}`}.
        </Text>
      )}
      {run.message !== undefined && (
        <Text size="xs" c={run.state === 'Failed' ? 'red' : undefined}>
          {run.message}
        </Text>
      )}
    </Stack>
  );
}
