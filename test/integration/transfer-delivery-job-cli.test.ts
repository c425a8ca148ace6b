import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stack } from './support/stack.ts';

/** `npm run job -- <name> …` (scripts/job.ts) against the running test stack, found through its data folder. */
function job(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/job.ts', ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run job', () => {
  it('runs a job now against the running stack and prints its result', async () => {
    const ran = await job(['alerts-expiry', '--client', 'acme', '--data-dir', stack().dataDir]);
    expect(ran.code, ran.stderr).toBe(0);
    const printed = JSON.parse(ran.stdout) as { job: string; ok: boolean; result: Record<string, unknown> };
    expect(printed).toMatchObject({ job: 'alerts-expiry', ok: true });
    expect(typeof printed.result).toBe('object');
    expect(ran.stderr).toContain(`against ${stack().apiUrl}`);
  }, 90_000);

  it('exits 1 with the reason when the job fails', async () => {
    const ran = await job(['payload-processing', '--input', '{"not":"an event"}', '--data-dir', stack().dataDir]);
    expect(ran.code).toBe(1);
    expect(JSON.parse(ran.stdout)).toMatchObject({ job: 'payload-processing', ok: false });
    expect(ran.stderr).toMatch(/payload-processing failed after .* s: payload-processing: /);
  }, 90_000);

  it('exits 2 on an unknown job, input that is not a JSON object, or no running stack', async () => {
    const unknown = await job(['no-such-job', '--data-dir', stack().dataDir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No job named "no-such-job"');
    expect(unknown.stderr).toContain('alerts-expiry');
    const badInput = await job(['alerts-expiry', '--input', '[1,2]', '--data-dir', stack().dataDir]);
    expect(badInput.code).toBe(2);
    expect(badInput.stderr).toContain('--input must be a JSON object');
    const nowhere = mkdtempSync(join(tmpdir(), 'verity-no-stack-'));
    try {
      const none = await job(['alerts-expiry', '--data-dir', nowhere]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('The local stack is not running');
      // A description left by a stack that was killed: its process is gone.
      writeFileSync(join(nowhere, 'stack.json'), JSON.stringify({ pid: 2 ** 22 + 12345, apiUrl: stack().apiUrl, env: {} }));
      const stale = await job(['alerts-expiry', '--data-dir', nowhere]);
      expect(stale.code).toBe(2);
      expect(stale.stderr).toMatch(/process \d+ that wrote .* is gone/);
    } finally {
      rmSync(nowhere, { recursive: true, force: true });
    }
  }, 120_000);
});
