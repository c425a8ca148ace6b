import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDevice } from '../../scripts/device/device-state.ts';
import { signInDemoAccount } from '../../scripts/device/portal-sign-in.ts';
import { REPO_ROOT } from '../../scripts/local/stack.ts';

/**
 * `npm start` as a newcomer runs it (scripts/local/start.ts), on a free port with a temporary data folder: the stack
 * starts, seeds the demo tenants, fleet, media, supervision, capture completeness and transfer configuration, and prints no error on the way. Then the
 * device simulator, told nothing about the port, finds that stack (its stack.json) and answers a command sent from
 * the portal.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'verity-healthy-start-'));
let start: ChildProcess;
const stdout: string[] = [];
const stderr: string[] = [];
let apiUrl: string;

/** Resolves when a line of the start's output matches, with the match; rejects when the process ends first. */
function outputLine(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const seen = () => stdout.map((line) => pattern.exec(line)).find((match) => match !== null);
    const timer = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`No line matching ${pattern} in ${timeoutMs} ms.\nstdout:\n${stdout.slice(-30).join('\n')}\nstderr:\n${stderr.join('\n')}`));
    }, timeoutMs);
    const poll = setInterval(() => {
      const match = seen();
      if (match !== undefined) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(match);
      } else if (start.exitCode !== null) {
        clearInterval(poll);
        clearTimeout(timer);
        reject(new Error(`npm start ended (${start.exitCode}).\nstderr:\n${stderr.join('\n')}`));
      }
    }, 200);
  });
}

const collect = (into: string[]) => {
  let rest = '';
  return (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    into.push(...lines);
  };
};

beforeAll(async () => {
  start = spawn(process.execPath, ['--import', 'tsx', 'scripts/local/start.ts', '--port', '0', '--sftp-port', '0', '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '', SFTP_PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  start.stdout?.on('data', collect(stdout));
  start.stderr?.on('data', collect(stderr));
  apiUrl = (await outputLine(/^Ready: (http:\/\/\S+)/, 240_000))[1] as string;
  // The fleet and its media go through the running API after "Ready"; the transfer configuration is seeded last.
  await outputLine(/^Seeded the demo transfer configuration/, 600_000);
}, 900_000);

afterAll(async () => {
  if (start.exitCode === null) {
    const ended = new Promise((resolve) => start.once('exit', resolve));
    start.kill('SIGTERM');
    await ended;
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** An error line: anything on stderr, or a JSON log line at level error. */
function errorLines(): string[] {
  const logged = stdout.filter((line) => {
    if (!line.startsWith('{')) return false;
    try {
      return (JSON.parse(line) as { level?: string }).level === 'error';
    } catch {
      return false;
    }
  });
  return [...stderr.filter((line) => line.trim() !== ''), ...logged];
}

describe('a healthy start', () => {
  it('seeds the demo fleet, its supervision and its capture completeness, and prints no error line', () => {
    expect(stdout).toContain('Seeded the demo fleet (npm run device -- list).');
    expect(stdout).toContain('Seeded the demo supervision policies and the messages in the review queue.');
    expect(stdout).toContain('Seeded the demo capture completeness (demo-chloe has gaps).');
    expect(errorLines()).toEqual([]);
  });

  // Two tsx processes start here (the simulator's CLI runs as a newcomer runs it): more than the default 30 s on a busy machine.
  it('has the device simulator find the running stack on its port, and answer a command sent from the portal', { timeout: 240_000 }, async () => {
    const phone = loadDevice(join(dataDir, 'devices'), 'demo-alice');
    expect(phone).toBeDefined();
    const token = await signInDemoAccount(apiUrl, 'admin@demo.test');
    const commands = `${apiUrl}/api/v1/demo/devices/${phone?.device_reference}/commands`;
    const sent = await fetch(commands, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ command: 'sync_data' }),
    });
    expect(sent.status).toBeLessThan(300);
    const { command_reference } = (await sent.json()) as { command_reference: string };

    // No --url, no PORT: the stack's own stack.json in the data folder says where it is.
    const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/device/cli.ts', 'commands', '--data-dir', dataDir, '--device', 'demo-alice'], {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: '', VERITY_URL: '' },
    });
    expect(run.stdout).toContain(command_reference);

    const listed = (await (await fetch(commands, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: Array<{ command_reference: string; state: string }>;
    };
    expect(listed.data.find((command) => command.command_reference === command_reference)?.state).toBe('Completed');
    expect(errorLines()).toEqual([]);
  });
});
