import { formatIssues } from '#shared/contract/messages.ts';
import { MigrationSubmissionRequest, type MigrationSubmission } from '#shared/contract/entities/migrations.ts';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import { errorLinesOf } from '../../lib/form-errors.ts';

/** The three calls a submission makes, in order: declare the file, PUT it to storage, start its import. */
export type SubmissionStep = 'submit' | 'upload' | 'start';

/** Where one file's submission stands; kept between tries so a retry goes on from the step that failed. */
export interface SubmissionState {
  /** The step under way, or the one that failed. */
  step: SubmissionStep;
  submission?: MigrationSubmission;
  sent: number;
  total: number;
  failure?: { step: SubmissionStep; lines: string[] };
  started?: LegacyMigration;
}

export interface SubmissionCalls {
  submit: (request: MigrationSubmissionRequest) => Promise<MigrationSubmission>;
  upload: (submission: MigrationSubmission, onProgress: (sent: number, total: number) => void) => Promise<void>;
  start: (reference: string) => Promise<LegacyMigration>;
  now: () => Date;
}

/**
 * The file checked as the API would check the submission (name and size bounds, from the contract), before any call:
 * a file too big is refused at once with the limit named, not after a long upload.
 */
export function checkFile(file: { name: string; size: number }): string[] {
  const parsed = MigrationSubmissionRequest.safeParse({ filename: file.name, size_bytes: file.size });
  if (parsed.success) return [];
  return formatIssues(parsed.error).map((line) => line.replace(/^size_bytes:/, 'File size:').replace(/^filename:/, 'File name:'));
}

/** A pre-signed URL is used only while it has this long left to live (an upload of a large file takes a while). */
const URL_MARGIN_MS = 5 * 60 * 1000;

/**
 * Runs (or resumes) one file's submission: declares it unless an earlier try already did and its upload URL is still
 * fresh, uploads it unless that already succeeded, then starts the import. Each change is reported to `onChange`;
 * the answer is the final state, with `failure` naming the step that failed and the lines to show.
 */
export async function runSubmission(
  calls: SubmissionCalls,
  file: { name: string; size: number },
  previous: SubmissionState | undefined,
  onChange: (state: SubmissionState) => void,
): Promise<SubmissionState> {
  let state: SubmissionState = { step: 'submit', sent: 0, total: file.size, ...previous, failure: undefined };
  const report = (next: Partial<SubmissionState>) => {
    state = { ...state, ...next };
    onChange(state);
  };
  const uploaded = previous?.failure?.step === 'start';
  const fresh = (submission: MigrationSubmission) => new Date(submission.upload_expires_at).getTime() - calls.now().getTime() > URL_MARGIN_MS;
  try {
    let submission = state.submission;
    if (!uploaded && (submission === undefined || !fresh(submission))) {
      report({ step: 'submit', submission: undefined, sent: 0 });
      submission = await calls.submit({ filename: file.name, size_bytes: file.size });
      report({ submission });
    }
    if (submission === undefined) throw new Error('No submission to upload to');
    if (!uploaded) {
      report({ step: 'upload', sent: 0 });
      await calls.upload(submission, (sent, total) => report({ sent, total }));
      report({ sent: file.size });
    }
    report({ step: 'start' });
    const started = await calls.start(submission.migration.migration_reference);
    report({ started });
    return state;
  } catch (error) {
    report({ failure: { step: state.step, lines: errorLinesOf(error) } });
    return state;
  }
}
