import { describe, expect, it, vi } from 'vitest';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import type { MigrationSubmission } from '#shared/contract/entities/migrations.ts';
import { ApiError } from '../../lib/api-error.ts';
import { checkFile, runSubmission, type SubmissionCalls, type SubmissionState } from './submission-flow.ts';

const NOW = new Date('2026-11-24T10:00:00Z');
const migration: LegacyMigration = {
  migration_reference: '01JAAAAAAAAAAAAAAAAAAAAAAA',
  migration_state: 'Pending',
  filename: 'history.ndjson',
  counters: {},
  warnings: [],
  import_errors: [],
  import_warnings: [],
  imported: [],
};
const submission = (expiresAt = '2026-11-24T11:00:00Z'): MigrationSubmission => ({
  migration,
  upload_url: 'https://storage.test/put',
  upload_headers: { 'content-type': 'application/octet-stream' },
  upload_expires_at: expiresAt,
});
const file = { name: 'history.ndjson', size: 2000 };

function calls(overrides: Partial<SubmissionCalls> = {}) {
  return {
    submit: vi.fn(async () => submission()),
    upload: vi.fn(async (_submission: MigrationSubmission, onProgress: (sent: number, total: number) => void) => {
      onProgress(1000, 2000);
    }),
    start: vi.fn(async () => ({ ...migration, started_at: NOW.toISOString() })),
    now: () => NOW,
    ...overrides,
  } satisfies SubmissionCalls;
}

describe('runSubmission', () => {
  it('declares the file, uploads it with progress, then starts its import', async () => {
    const steps: SubmissionState[] = [];
    const fakes = calls();
    const end = await runSubmission(fakes, file, undefined, (state) => steps.push(state));
    expect(fakes.submit).toHaveBeenCalledWith({ filename: 'history.ndjson', size_bytes: 2000 });
    expect(fakes.start).toHaveBeenCalledWith(migration.migration_reference);
    expect(end.failure).toBeUndefined();
    expect(end.started?.started_at).toBe(NOW.toISOString());
    expect(steps.map((state) => `${state.step} ${state.sent}/${state.total}`)).toContain('upload 1000/2000');
    expect(end.sent).toBe(2000);
  });

  it('names the step that failed with its lines, and a retry goes on from the upload with the same submission', async () => {
    const fakes = calls({ upload: vi.fn(async () => Promise.reject(new Error('Storage refused the upload (HTTP 403)'))) });
    const failed = await runSubmission(fakes, file, undefined, () => undefined);
    expect(failed.failure).toEqual({ step: 'upload', lines: ['Storage refused the upload (HTTP 403)'] });

    const retry = calls();
    const end = await runSubmission(retry, file, failed, () => undefined);
    expect(retry.submit).not.toHaveBeenCalled();
    expect(retry.upload).toHaveBeenCalledWith(failed.submission, expect.any(Function));
    expect(end.failure).toBeUndefined();
  });

  it('declares the file again when the upload URL has (nearly) expired', async () => {
    const failed: SubmissionState = { step: 'upload', sent: 0, total: 2000, submission: submission('2026-11-24T10:02:00Z'), failure: { step: 'upload', lines: ['x'] } };
    const retry = calls();
    await runSubmission(retry, file, failed, () => undefined);
    expect(retry.submit).toHaveBeenCalledTimes(1);
  });

  it('after a refused start, a retry only starts again (the file is already uploaded)', async () => {
    const refusal = new ApiError(400, 400, ['migration_reference: The file of migration x has not been uploaded yet'], 'client.migrations.start');
    const first = await runSubmission(calls({ start: vi.fn(async () => Promise.reject(refusal)) }), file, undefined, () => undefined);
    expect(first.failure).toEqual({ step: 'start', lines: ['migration_reference: The file of migration x has not been uploaded yet'] });
    const retry = calls();
    const end = await runSubmission(retry, file, first, () => undefined);
    expect(retry.submit).not.toHaveBeenCalled();
    expect(retry.upload).not.toHaveBeenCalled();
    expect(retry.start).toHaveBeenCalledTimes(1);
    expect(end.started).toBeDefined();
  });
});

describe('checkFile', () => {
  it('refuses an empty file and one over the 5 GiB limit, naming the limit', () => {
    expect(checkFile({ name: 'a.ndjson', size: 10 })).toEqual([]);
    expect(checkFile({ name: 'a.ndjson', size: 0 })).toEqual(['File size: Must be at least 1 byte']);
    expect(checkFile({ name: 'a.ndjson', size: 6 * 1024 ** 3 })).toEqual(['File size: Must be at most 5 GiB (5368709120 bytes)']);
  });
});
