import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { OutputDigest, Packaging, PackagingEntry } from './types.ts';

/**
 * Test kit for checking deliveries with the tools receivers use: GnuPG, 7-Zip (`7zz`) and `sha256sum`. They are
 * prerequisites (README; `.ci/run` installs them), so a missing tool fails the tests rather than skipping them.
 */

export interface ToolRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runTool(command: string, args: readonly string[], env: Record<string, string> = {}): ToolRun {
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 });
  if (result.error !== undefined) throw new Error(`${command} could not run (install it: see the README's prerequisites): ${result.error.message}`);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a tool and fails with its output unless it exits 0. */
export function mustRun(command: string, args: readonly string[], env: Record<string, string> = {}): string {
  const run = runTool(command, args, env);
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** `sha256sum` of one file, as the receiver would run it. */
export const sha256sum = (file: string): string => (mustRun('sha256sum', ['--binary', file]).split(' ')[0] as string).trim();

/** SHA-256 of a file computed here, to compare the outside tool's answer with. */
export const sha256Here = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A throwaway GnuPG home with gpg's default key pair (primary and encryption subkey), no passphrase: the receiver. */
export interface Receiver {
  gnupgHome: string;
  armoredPublicKey: string;
  fingerprint: string;
  /** Runs gpg in this home, in batch mode. */
  gpg(args: readonly string[]): string;
}

export function createReceiver(root: string): Receiver {
  const gnupgHome = join(root, 'gnupg');
  mkdirSync(gnupgHome, { mode: 0o700 });
  const env = { GNUPGHOME: gnupgHome };
  const uid = 'Verity Receiver <receiver@example.test>';
  mustRun('gpg', ['--batch', '--quiet', '--passphrase', '', '--quick-gen-key', uid, 'default', 'default', 'never'], env);
  const armoredPublicKey = mustRun('gpg', ['--batch', '--armor', '--export', uid], env);
  const fpr = /^fpr:+([0-9A-F]+):/m.exec(mustRun('gpg', ['--batch', '--with-colons', '--fingerprint', uid], env));
  if (fpr === null) throw new Error('gpg printed no fingerprint');
  return {
    gnupgHome,
    armoredPublicKey,
    fingerprint: fpr[1] as string,
    gpg: (args) => mustRun('gpg', ['--batch', '--yes', '--quiet', ...args], env),
  };
}

/** Source recordings on disk: an empty one, a unicode name, two over 1 MiB (one of unknown size), one whose name needs CSV quoting. */
export interface SourceFile {
  name: string;
  path: string;
  size: number;
  /** Omit the size from the entry (the packager must then cope with an unknown size: zip64 data descriptors). */
  sizeUnknown?: boolean;
}

export function writeSources(root: string): SourceFile[] {
  const directory = join(root, 'sources');
  const files: { name: string; bytes: Buffer; sizeUnknown?: boolean }[] = [
    { name: 'empty/nothing-said.m4a', bytes: Buffer.alloc(0) },
    { name: 'calls/Zoë 通話 2026-11-24.m4a', bytes: Buffer.from('a short recording with a unicode name\n') },
    { name: 'video/large recording.mp4', bytes: patternBytes(3 * 1024 * 1024 + 17), sizeUnknown: true },
    { name: 'photos/large photo.jpg', bytes: patternBytes(1536 * 1024 + 3) },
    { name: 'sms/quote "this", then that.txt', bytes: Buffer.from('SMS body, with a comma\n') },
  ];
  return files.map(({ name, bytes, sizeUnknown }) => {
    const path = join(directory, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    return { name, path, size: bytes.length, ...(sizeUnknown === true ? { sizeUnknown } : {}) };
  });
}

/** Bytes that do not repeat within a window deflate could exploit much (a hash chain), so sizes stay honest. */
function patternBytes(length: number): Buffer {
  const out = Buffer.alloc(length);
  let block = createHash('sha256').update('seed').digest();
  for (let offset = 0; offset < length; offset += block.length) {
    block.copy(out, offset);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

export const entriesOf = (sources: readonly SourceFile[]): PackagingEntry[] =>
  sources.map((source) => ({
    name: source.name,
    ...(source.sizeUnknown === true ? {} : { size: source.size }),
    modifiedAt: new Date('2026-11-24T09:30:00Z'),
    open: () => createReadStream(source.path),
  }));

/** Writes every output to `directory` as an upload would (read to the end, in order) and returns their digests. */
export async function deliverTo(packaging: Packaging, directory: string): Promise<OutputDigest[]> {
  const digests: OutputDigest[] = [];
  for await (const output of packaging.outputs) {
    const path = join(directory, output.name);
    mkdirSync(dirname(path), { recursive: true });
    await pipeline(Readable.fromWeb(output.stream as NodeReadableStream<Uint8Array>), createWriteStream(path));
    digests.push(await output.digest);
  }
  return digests;
}

export const tempRoot = (): string => mkdtempSync(join(tmpdir(), 'verity-packaging-'));
