import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTransferManifest, manifestCsv, type ManifestSource } from './manifest.ts';
import { packageTransfer } from './packager.ts';
import {
  createReceiver,
  deliverTo,
  entriesOf,
  mustRun,
  runTool,
  sha256Here,
  sha256sum,
  tempRoot,
  writeSources,
  type Receiver,
  type SourceFile,
} from './outside-tools.testkit.ts';
import type { OutputDigest } from './types.ts';

/**
 * Deliveries checked with the receivers' own tools: `gpg --decrypt` with the receiver's private key, `7zz` with the
 * password, `sha256sum` of every file against the source and against the manifest.
 */
const PASSWORD = 'correct horse, battery "staple" ü';
let root: string;
let receiver: Receiver;
let sources: SourceFile[];

beforeAll(() => {
  root = tempRoot();
  receiver = createReceiver(root);
  sources = writeSources(root);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 24, 8, minutes)).toISOString();

/** What the transfer job would know: each source's device checksum (computed by sha256sum, as the device's would be). */
const manifestSources = (): ManifestSource[] =>
  sources.map((source, index) => ({
    entryName: source.name,
    payloadReference: `01JDQ${String(index).padStart(21, '0')}`,
    sourcePath: `processed/acme/${source.name}`,
    deviceSha256: sha256sum(source.path),
    recordedAt: at(1),
    uploadedAt: at(2),
    processedAt: at(3),
  }));

function manifestFor(format: 'Uncompressed' | 'Zipped' | 'ZippedWithPassword', outputs: OutputDigest[], pgpFingerprint?: string) {
  return buildTransferManifest({
    transferId: '01JDQTRANSFER000000000000A',
    transferConfigReference: 'nightly-export',
    format,
    ...(pgpFingerprint === undefined ? {} : { pgpFingerprint }),
    generatedAt: new Date(at(10)),
    outputs,
    sources: manifestSources(),
    deliveries: outputs.map((output) => ({ outputName: output.name, destPath: `s3://receiver-bucket/verity/${output.name}`, transferredAt: at(9) })),
  });
}

const expectedMethod = (source: SourceFile): string => (source.name.endsWith('.txt') || source.size === 0 || source.sizeUnknown === true ? 'Deflate' : 'Store');

/** Each entry's compression method as `7zz l -slt` reports it, by path. */
function methodsOf(listing: string): Map<string, string> {
  const methods = new Map<string, string>();
  for (const block of listing.split(/\n\n/)) {
    const path = /^Path = (.*)$/m.exec(block)?.[1];
    const method = /^Method = (.*)$/m.exec(block)?.[1];
    if (path !== undefined && method !== undefined) methods.set(path, method);
  }
  return methods;
}

/** Every source, extracted or decrypted under `directory`, hashes (by sha256sum) as the source and as the manifest says. */
function expectFilesMatch(directory: string, manifest: ReturnType<typeof manifestFor>) {
  for (const source of sources) {
    const received = join(directory, source.name);
    const hash = sha256sum(received);
    expect(hash, source.name).toBe(sha256sum(source.path));
    expect(statSync(received).size).toBe(source.size);
    const line = manifest.files.find((file) => file.source_path === `processed/acme/${source.name}`);
    expect(line?.plaintext_sha256, source.name).toBe(hash);
    expect(line?.size).toBe(source.size);
  }
  expect(manifest.files).toHaveLength(sources.length);
}

describe('ZippedWithPassword + PGP, opened with gpg and 7zz', () => {
  let delivered: string;
  let outputs: OutputDigest[];
  let fingerprint: string | undefined;

  beforeAll(async () => {
    delivered = join(root, 'zip-password-pgp');
    const packaging = await packageTransfer(entriesOf(sources), { format: 'ZippedWithPassword', zipPassword: PASSWORD, pgpPublicKey: receiver.armoredPublicKey });
    fingerprint = packaging.pgpFingerprint;
    outputs = await deliverTo(packaging, delivered);
  }, 60_000);

  it('delivers one transfer.zip.pgp whose sha256sum is the digest, encrypted to the receiver’s key', () => {
    expect(outputs.map((output) => output.name)).toEqual(['transfer.zip.pgp']);
    const file = join(delivered, 'transfer.zip.pgp');
    expect(sha256sum(file)).toBe(outputs[0]?.sha256);
    expect(statSync(file).size).toBe(outputs[0]?.size);
    expect(fingerprint).toBe(receiver.fingerprint);
    // Binary OpenPGP, not armour: the first byte is a packet tag (bit 7 set).
    expect((readFileSync(file)[0] as number) & 0x80).toBe(0x80);
  });

  it('decrypts with gpg, then extracts with 7zz and the password; every file matches its source and the manifest', () => {
    const zip = join(delivered, 'transfer.zip');
    receiver.gpg(['--output', zip, '--decrypt', join(delivered, 'transfer.zip.pgp')]);
    const listing = mustRun('7zz', ['l', '-slt', `-p${PASSWORD}`, zip]);
    for (const source of sources) expect(listing).toContain(`Path = ${source.name}\nFolder = -\nSize = ${source.size}`);
    // Recordings already compressed are stored, text and entries that are (or may be) empty deflated; all AES-256.
    expect(methodsOf(listing)).toEqual(new Map(sources.map((source) => [source.name, `AES-256 ${expectedMethod(source)}`])));
    expect(listing.match(/^Encrypted = \+$/gm)?.length).toBe(sources.length);
    const extracted = join(delivered, 'extracted');
    mustRun('7zz', ['x', `-p${PASSWORD}`, `-o${extracted}`, zip]);

    const manifest = manifestFor('ZippedWithPassword', outputs, fingerprint);
    expectFilesMatch(extracted, manifest);
    expect(manifest.pgp_fingerprint).toBe(receiver.fingerprint);
    for (const file of manifest.files) {
      expect(file.delivered_sha256).toBe(sha256sum(join(delivered, 'transfer.zip.pgp')));
      expect(file.dest_path).toBe('s3://receiver-bucket/verity/transfer.zip.pgp');
      expect(sources.map((source) => source.name)).toContain(file.archive_path);
    }
    expect(manifestCsv(manifest)).toContain('"sms/quote ""this"", then that.txt"');
  });

  it('refuses a wrong password in 7zz', () => {
    const zip = join(delivered, 'transfer.zip');
    receiver.gpg(['--output', zip, '--decrypt', join(delivered, 'transfer.zip.pgp')]);
    const run = runTool('7zz', ['t', '-pnot-the-password', zip]);
    expect(run.status).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain('Wrong password');
  });
});

describe('Zipped, opened with 7zz', () => {
  it('is a plain deflated zip that extracts with no password, every file matching', async () => {
    const delivered = join(root, 'zipped');
    const packaging = await packageTransfer(entriesOf(sources), { format: 'Zipped', zipPassword: 'ignored for Zipped', archiveName: 'acme-2026-11-24.zip' });
    expect(packaging.pgpFingerprint).toBeUndefined();
    const outputs = await deliverTo(packaging, delivered);
    expect(outputs.map((output) => output.name)).toEqual(['acme-2026-11-24.zip']);
    const zip = join(delivered, 'acme-2026-11-24.zip');
    expect(sha256sum(zip)).toBe(outputs[0]?.sha256);
    const listing = mustRun('7zz', ['l', '-slt', zip]);
    expect(listing).not.toContain('Encrypted = +');
    expect(methodsOf(listing)).toEqual(new Map(sources.map((source) => [source.name, expectedMethod(source)])));
    mustRun('7zz', ['t', zip]);
    const extracted = join(delivered, 'extracted');
    mustRun('7zz', ['x', `-o${extracted}`, zip]);
    const manifest = manifestFor('Zipped', outputs);
    expectFilesMatch(extracted, manifest);
    expect(manifest.deliveries).toEqual([
      { name: 'acme-2026-11-24.zip', dest_path: 's3://receiver-bucket/verity/acme-2026-11-24.zip', size: statSync(zip).size, sha256: sha256sum(zip), transferred_at: at(9) },
    ]);
  });
});

describe('Uncompressed, with and without PGP', () => {
  it('delivers one .pgp file per recording; gpg decrypts each to its source', async () => {
    const delivered = join(root, 'uncompressed-pgp');
    const packaging = await packageTransfer(entriesOf(sources), { format: 'Uncompressed', pgpPublicKey: receiver.armoredPublicKey });
    const outputs = await deliverTo(packaging, delivered);
    expect(outputs.map((output) => output.name)).toEqual(sources.map((source) => `${source.name}.pgp`));
    const decrypted = join(delivered, 'decrypted');
    for (const output of outputs) {
      const file = join(delivered, output.name);
      expect(sha256sum(file)).toBe(output.sha256);
      mustRun('mkdir', ['-p', join(decrypted, output.name, '..')]);
      receiver.gpg(['--output', join(decrypted, output.name.replace(/\.pgp$/, '')), '--decrypt', file]);
    }
    const manifest = manifestFor('Uncompressed', outputs, packaging.pgpFingerprint);
    expectFilesMatch(decrypted, manifest);
    for (const file of manifest.files) {
      expect(file.archive_path).toBeUndefined();
      expect(file.delivered_sha256).toBe(sha256sum(join(delivered, file.dest_path.replace('s3://receiver-bucket/verity/', ''))));
    }
  });

  it('delivers the recordings as they are, without PGP', async () => {
    const delivered = join(root, 'uncompressed');
    const outputs = await deliverTo(await packageTransfer(entriesOf(sources), { format: 'Uncompressed' }), delivered);
    expect(outputs.map((output) => output.name)).toEqual(sources.map((source) => source.name));
    const manifest = manifestFor('Uncompressed', outputs);
    expectFilesMatch(delivered, manifest);
    for (const output of outputs) expect(output.sha256).toBe(output.entries[0]?.sha256);
    expect(sha256Here(join(delivered, sources[2]?.name as string))).toBe(sha256sum(sources[2]?.path as string));
  });
});
