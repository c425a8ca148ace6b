import { Alert, Button, FileInput, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ErrorLines } from '../../components/data/error-lines.tsx';
import { useSession } from '../../lib/session/session-context.tsx';
import { useCan } from '../../lib/use-can.ts';
import { MigrationLink } from './migration-bits.tsx';
import { formatBytes } from '../../lib/format.ts';
import { getMigration } from './api/get-migration.ts';
import { listMigrations } from './api/list-migrations.ts';
import { startMigration } from './api/start-migration.ts';
import { submitMigration } from './api/submit-migration.ts';
import { checkFile, runSubmission, type SubmissionState, type SubmissionStep } from './submission-flow.ts';
import { fileSha256 } from './file-sha256.ts';
import { uploadWithProgress } from './upload.ts';

const FAILURE_TITLES: Record<SubmissionStep, string> = {
  submit: 'The file could not be submitted',
  upload: 'The upload failed',
  start: 'The import could not start',
};

const RETRY_LABELS: Record<SubmissionStep, string> = {
  submit: 'Try again',
  upload: 'Upload again',
  start: 'Try starting again',
};

/** Where a running submission is, in words. */
function stepWords(state: SubmissionState): string {
  if (state.step === 'submit') return 'Submitting the file…';
  if (state.step === 'upload') return `Uploading: ${formatBytes(state.sent)} of ${formatBytes(state.total)}`;
  return 'Starting the import…';
}

/**
 * Import a legacy export: the file is declared (a Pending migration and a pre-signed URL), sent straight to storage with
 * its progress shown, then its import is started. A failed step is named and can be tried again from where it stopped.
 * Offered only to a role that may import.
 */
export function SubmitExport() {
  const canImport = useCan('migrations:Import').allowed;
  const { session } = useSession();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<SubmissionState | undefined>(undefined);
  const [running, setRunning] = useState(false);
  const stopper = useRef<AbortController | undefined>(undefined);
  if (!canImport) return null;

  const fileProblems = file === null ? [] : checkFile(file);
  const send = async (previous: SubmissionState | undefined) => {
    if (file === null || fileProblems.length > 0) return;
    const controller = new AbortController();
    stopper.current = controller;
    setRunning(true);
    const end = await runSubmission(
      {
        // The SHA-256 binds the upload link to this very file (storage refuses another), when the file is small
        // enough to hash here; a larger one is bound to its size alone.
        submit: async (request) => {
          const sha256 = await fileSha256(file);
          return session.call(submitMigration, { body: sha256 === undefined ? request : { ...request, sha256 } });
        },
        upload: (submission, onProgress) =>
          uploadWithProgress({ url: submission.upload_url, headers: submission.upload_headers, file, onProgress, signal: controller.signal }),
        start: (reference) => session.call(startMigration, { params: { migration_reference: reference } }),
        now: () => new Date(),
      },
      file,
      previous,
      setState,
    );
    setRunning(false);
    stopper.current = undefined;
    // The list shows the new migration (Pending, then importing) whichever step it reached.
    await Promise.all([listMigrations, getMigration].map((endpoint) => queryClient.invalidateQueries({ queryKey: ['api', endpoint.id] })));
    if (end.failure === undefined) setFile(null);
  };

  const failure = running ? undefined : state?.failure;
  const started = running ? undefined : state?.started;
  const percent = state !== undefined && state.total > 0 ? Math.min(100, Math.round((state.sent / state.total) * 100)) : 0;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="submit-export-title">
      <Title order={2} size="h4" id="submit-export-title" mb={4}>
        Import a legacy export
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        The export file (NDJSON, one record per line) goes straight to storage, then its import starts. Every row gets a result you can read and download below. Importing the same file again changes nothing.
      </Text>
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <FileInput
            label="Export file"
            // Mantine's own placeholder grey is below AA contrast on white: the portal's dimmed text instead.
            placeholder={
              <Text span size="sm" c="dimmed">
                Choose a file
              </Text>
            }
            value={file}
            onChange={(chosen) => {
              setFile(chosen);
              setState(undefined);
            }}
            disabled={running}
            clearable
            error={fileProblems.length > 0 ? fileProblems.join(' ') : undefined}
            description={file !== null && fileProblems.length === 0 ? formatBytes(file.size) : 'Up to 5 GiB'}
            miw={280}
            style={{ flex: 1 }}
          />
          <Button disabled={file === null || fileProblems.length > 0 || running} loading={running} onClick={() => void send(undefined)}>
            Upload and import
          </Button>
          {running && state?.step === 'upload' && (
            <Button variant="default" onClick={() => stopper.current?.abort()}>
              Stop upload
            </Button>
          )}
        </Group>
        {running && state !== undefined && (
          <Stack gap={4} aria-live="polite">
            <Progress
              value={state.step === 'submit' ? 0 : percent}
              size="lg"
              striped
              animated
              aria-label={`Upload progress: ${stepWords(state)}`}
            />
            <Text size="sm" data-testid="upload-progress-words">
              {stepWords(state)}
              {state.step === 'upload' ? ` (${percent}%)` : ''}
            </Text>
          </Stack>
        )}
        {failure !== undefined && (
          <Stack gap="xs">
            <ErrorLines title={FAILURE_TITLES[failure.step]} lines={failure.lines} />
            <Group>
              <Button variant="light" disabled={file === null} onClick={() => void send(state)}>
                {RETRY_LABELS[failure.step]}
              </Button>
              {failure.step === 'start' && (
                <Button variant="default" disabled={file === null} onClick={() => void send(undefined)}>
                  Send the file again
                </Button>
              )}
            </Group>
          </Stack>
        )}
        {started !== undefined && (
          <Alert variant="default" title="Import started" styles={{ root: { borderColor: 'var(--mantine-color-green-filled)', borderWidth: 2 } }}>
            <Text size="sm">
              {formatBytes(state?.total)} uploaded. The import runs on by itself; follow it in the list or{' '}
              <MigrationLink reference={started.migration_reference}>open {started.filename}</MigrationLink>.
            </Text>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
