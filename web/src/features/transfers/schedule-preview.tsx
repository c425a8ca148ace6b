import { List, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../../lib/format.ts';
import { previewSchedule, scheduleInWords } from './schedule-words.ts';

/** Runs shown are recomputed each minute, so an editor left open does not list runs already past. */
const REFRESH_MS = 60_000;

const utcTime = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' });

/** The schedule in words and its next five runs, recomputed as the expression is typed. */
export function SchedulePreviewPanel({ expression, savedAt }: { expression: string; savedAt?: string | undefined }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const preview = previewSchedule(expression, now, savedAt === undefined ? undefined : new Date(savedAt));
  const trimmed = expression.trim();

  return (
    <div aria-live="polite" data-testid="schedule-preview">
      {trimmed === '' ? (
        <Text size="sm" c="dimmed" mt="xs">
          On demand only: it runs when someone presses Run now.
        </Text>
      ) : preview.problem !== undefined ? (
        <Text size="sm" c="dimmed" mt="xs">
          Next runs appear here once the expression can be read.
        </Text>
      ) : (
        <>
          <Text size="sm" mt="xs" fw={500}>
            {scheduleInWords(trimmed)}
          </Text>
          {preview.runs.length === 0 ? (
            <Text size="sm" c="dimmed">
              No run to come: every year it names is past.
            </Text>
          ) : (
            <>
              <Text size="sm" c="dimmed" id="next-runs-label">
                Next {preview.runs.length} runs (your time, then UTC)
              </Text>
              <List size="sm" aria-labelledby="next-runs-label" type="ordered">
                {preview.runs.map((run) => (
                  <List.Item key={run.getTime()}>
                    {formatDateTime(run)} <Text span c="dimmed" size="xs">({utcTime.format(run)} UTC)</Text>
                  </List.Item>
                ))}
              </List>
            </>
          )}
        </>
      )}
    </div>
  );
}
