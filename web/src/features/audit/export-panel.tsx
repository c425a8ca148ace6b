import { Alert, Badge, Button, Code, Group, Paper, Progress, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { ActivityExport } from '#shared/contract/entities/activity-export.ts';
import { ErrorLines, errorLinesOf } from '../../components/data/error-lines.tsx';
import { FactList } from '../../components/data/fact-list.tsx';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { formatBytes, formatDate, formatDateTime, formatNumber } from '../../lib/format.ts';
import { useCan } from '../../lib/use-can.ts';
import { useActivityExport, useAuditSigningKey, useStartActivityExport } from './api/activity-exports.ts';
import { exportPeriodOf, exportProgress } from './export-period.ts';

type TrailName = ActivityExport['trail'];

const TRAIL_WORDS: Record<TrailName, string> = { user: 'Portal users and apps', device: 'Devices' };
const STATE_COLOURS = { Running: 'blue', Completed: 'green', Failed: 'red' } as const;

/**
 * "Export the trail": one trail of a period as one signed file (POST activities/exports), its progress polled while
 * it runs, then the download with the file's SHA-256 and size, and the public key it verifies against
 * (docs/audit-export.md). Shown only to those who may export; the key to those who may read the trail.
 */
export function ExportPanel() {
  const canExport = useCan('activities:Export');
  const [trail, setTrail] = useState<TrailName>('user');
  const [days, setDays] = useState<{ from: string | undefined; to: string | undefined }>({ from: undefined, to: undefined });
  const [exportId, setExportId] = useState<string | undefined>(undefined);
  const start = useStartActivityExport();
  if (!canExport.allowed) return null;
  const period = exportPeriodOf(days.from, days.to);
  const submit = () => {
    if (period === undefined) return;
    start.mutate({ body: { trail, ...period } }, { onSuccess: (started) => setExportId(started.export_id) });
  };
  return (
    <section aria-labelledby="export-title">
      <Title order={2} size="h4" id="export-title" mb="xs">
        Export the trail
      </Title>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Text size="sm">
            One trail of a period as one signed file: its records in chain order with their hashes, the signed checkpoints that cover them, and a signed
            manifest, so the file can be checked without Verity.
          </Text>
          <Stack
            gap="xs"
            component="form"
            aria-label="Export the trail"
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <div>
                <Text size="sm" fw={500} id="export-trail" mb={4}>
                  Trail
                </Text>
                <SegmentedControl
                  aria-labelledby="export-trail"
                  value={trail}
                  onChange={(value) => setTrail(value as TrailName)}
                  data={(['user', 'device'] as const).map((value) => ({ value, label: TRAIL_WORDS[value] }))}
                />
              </div>
              <DateRangeFilter from={days.from} to={days.to} onChange={setDays} fromLabel="First day" toLabel="Last day" />
            </SimpleGrid>
            <Group>
              <Button type="submit" disabled={period === undefined} loading={start.isPending}>
                Start the export
              </Button>
              {period === undefined && (
                <Text size="xs" c="dimmed">
                  Choose the first and last day to export (both included, UTC).
                </Text>
              )}
            </Group>
            {start.isError && <ErrorLines title="The export was not started" lines={errorLinesOf(start.error)} />}
          </Stack>
          {exportId !== undefined && <ExportState exportId={exportId} />}
        </Stack>
      </Paper>
    </section>
  );
}

/** The export's progress while it runs; when Completed, the download with its SHA-256 and size, and the key. */
function ExportState({ exportId }: { exportId: string }) {
  const current = useActivityExport(exportId);
  const state = current.data;
  if (state === undefined) {
    return current.error ? <ErrorLines title="The export's progress could not be read" lines={errorLinesOf(current.error)} /> : <Text size="sm">Starting…</Text>;
  }
  const progress = exportProgress(state.records_written, state.records_total);
  const running = state.state === 'Running';
  const label = `${TRAIL_WORDS[state.trail]}, ${formatDate(state.from)} to ${formatDate(new Date(Date.parse(state.to) - 1))}`;
  return (
    <Stack gap="xs" aria-label="The export" role="group">
      <Group gap="xs">
        <Badge color={STATE_COLOURS[state.state]} variant="light" tt="none">
          {state.state}
        </Badge>
        <Text size="sm">{label}</Text>
      </Group>
      <Progress value={state.state === 'Completed' ? 100 : progress.share} striped={running} animated={running} aria-label={`Export progress: ${progress.words}`} />
      <Text size="sm" aria-live={running ? 'polite' : undefined}>
        {state.state === 'Completed' ? `${formatNumber(state.records_written)} records written.` : `${progress.words}${running ? '…' : '.'}`}
      </Text>
      {state.state === 'Failed' && (
        <Alert color="red" title="The export failed">
          {state.failure ?? 'The export job stopped without saying why: start the export again.'}
        </Alert>
      )}
      {state.state === 'Completed' && (
        <>
          <FactList
            facts={[
              ['Finished', formatDateTime(state.completed_at)],
              ['Size', formatBytes(state.bytes)],
              ['SHA-256', <Code key="sha" data-testid="export-sha256" style={{ wordBreak: 'break-all' }}>{state.sha256}</Code>],
            ]}
          />
          {state.download_url !== undefined && (
            <Group>
              <Button component="a" href={state.download_url} download>
                Download the file
              </Button>
            </Group>
          )}
          <SigningKey />
        </>
      )}
    </Stack>
  );
}

/** The published public key, and how to check the file with it (docs/audit-export.md, in one sentence). */
function SigningKey() {
  const canRead = useCan('activities:List').allowed;
  const [shown, setShown] = useState(false);
  const key = useAuditSigningKey(canRead && shown);
  if (!canRead) return null;
  return (
    <Stack gap={4}>
      <Text size="sm">
        To check the file without Verity (docs/audit-export.md): unpack it with <Code>tar -xf</Code>, check the manifest&apos;s signature against the
        signing key with <Code>openssl dgst -sha256 -verify verity-audit-public-key.pem -signature manifest.sig manifest.sha256</Code>, then the files
        with <Code>sha256sum --check manifest.sha256</Code>; <Code>npm run audit:verify -- --file</Code> also rechecks every record&apos;s hash and link.
      </Text>
      {!shown ? (
        <Group>
          <Button variant="default" onClick={() => setShown(true)}>
            Show the signing key
          </Button>
        </Group>
      ) : key.data === undefined ? (
        key.error ? <ErrorLines title="The signing key could not be read" lines={errorLinesOf(key.error)} /> : <Text size="sm">Loading the signing key…</Text>
      ) : (
        <Stack gap={2}>
          <Text size="sm">
            Signing key <Code>{key.data.key_id}</Code> ({key.data.algorithm}); save it as <Code>verity-audit-public-key.pem</Code>:
          </Text>
          <Code block aria-label="The audit signing key (PEM)">
            {key.data.pem}
          </Code>
        </Stack>
      )}
    </Stack>
  );
}
