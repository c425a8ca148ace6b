import { Badge, Group, List, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { FixityFailure, IntegrityCheck } from '#shared/contract/entities/integrity.ts';
import type { z } from 'zod';
import { formatBytes, formatDate, formatDateTime, formatNumber } from '../../lib/format.ts';
import { FactList } from './fact-list.tsx';

type Failure = z.infer<typeof FixityFailure>;

/** A failure kind in the words a compliance officer reads. */
const FAILURE_WORDS: Record<Failure['kind'], { one: string; many: string }> = {
  changed: { one: 'recording changed', many: 'recordings changed' },
  missing: { one: 'recording missing', many: 'recordings missing' },
  unreadable: { one: 'recording unreadable', many: 'recordings unreadable' },
};

/** The run's failures by kind, with the exact counts (the list of failing recordings is capped; the counts are not). */
export function failureCounts(check: IntegrityCheck): { kind: Failure['kind']; count: number; words: string }[] {
  const counts: [Failure['kind'], number][] = [
    ['changed', check.failures_changed],
    ['missing', check.failures_missing],
    ['unreadable', check.failures_unreadable],
  ];
  return counts
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => ({ kind, count, words: `${formatNumber(count)} ${count === 1 ? FAILURE_WORDS[kind].one : FAILURE_WORDS[kind].many}` }));
}

/** "37 of 120 stored recordings read in full (31%) since 1 Sept 2026": the cycle's progress in words. */
export function cycleWords(check: IntegrityCheck): string {
  const share = Math.floor(check.cycle_progress * 100);
  return `${formatNumber(check.cycle_objects_read)} of ${formatNumber(check.stored_objects)} stored ${check.stored_objects === 1 ? 'recording' : 'recordings'} read in full (${share}%) in the cycle started ${formatDate(check.cycle_started_at)}`;
}

/**
 * One fixity run's figures (the spec's IntegrityCheck): when it ran, what it checked and read, its failures by kind
 * with a link to each recording's `sec` alert, and the cycle's progress as a bar. `alertLink` makes the link: the
 * tenant's alerts screen and the internal console's differ.
 */
export function FixityFigures({ check, alertLink }: { check: IntegrityCheck; alertLink: (alertReference: string, label: ReactNode) => ReactNode }) {
  const failures = failureCounts(check);
  const percent = Math.floor(check.cycle_progress * 100);
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Badge color={failures.length === 0 ? 'green' : 'red'} variant="light" tt="none">
          {failures.length === 0 ? 'No failures' : failures.map((failure) => failure.words).join(', ')}
        </Badge>
        {check.budget_reached && (
          <Text size="xs" c="dimmed">
            The run stopped at its daily reading budget; the next run goes on from there.
          </Text>
        )}
      </Group>
      <FactList
        facts={[
          ['Last run', formatDateTime(check.finished_at)],
          ['Recordings checked (present, same version and size)', formatNumber(check.objects_checked)],
          ['Read in full and hashed', `${formatNumber(check.objects_verified)} (${formatBytes(check.bytes_verified)})`],
        ]}
      />
      <div>
        <Text size="sm" mb={4}>
          Cycle of full reads ({formatNumber(check.cycle_days)} days): {cycleWords(check)}
        </Text>
        {/* Mantine gives the bar's role to its section, which takes aria-label (not aria-labelledby). */}
        <Progress value={percent} size="lg" aria-label={`Cycle of full reads: ${cycleWords(check)}`} />
      </div>
      {check.failures.length > 0 && (
        <div>
          <Text size="sm" fw={500}>
            Failing recordings
          </Text>
          <List size="sm" spacing={2}>
            {check.failures.map((failure) => (
              <List.Item key={`${failure.payload_reference}:${failure.kind}`}>
                {failure.payload_reference}: {FAILURE_WORDS[failure.kind].one.replace('recording ', '')}
                {failure.alert_reference !== undefined && <> ({alertLink(failure.alert_reference, 'see its alert')})</>}
              </List.Item>
            ))}
          </List>
          {check.failures.length < failures.reduce((total, failure) => total + failure.count, 0) && (
            <Text size="xs" c="dimmed">
              {`The first ${formatNumber(check.failures.length)} failing recordings are listed; the counts above are exact.`}
            </Text>
          )}
        </div>
      )}
    </Stack>
  );
}

/** What a screen shows before the first run: the check has not run yet, and when it does. */
export const FIXITY_NOT_RUN = 'The stored recordings check has not run yet. It runs daily: each run checks that every stored recording is present and unchanged, and reads a share of them in full so all are read once per cycle.';
