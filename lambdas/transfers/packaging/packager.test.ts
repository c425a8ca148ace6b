import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { fieldRequired, MESSAGES } from '#shared/contract/messages.ts';
import { PackagingError } from './errors.ts';
import { packageTransfer } from './packager.ts';
import type { ByteSource, OutputDigest, PackagedOutput, PackagingEntry, PackagingOptions } from './types.ts';

const modifiedAt = new Date('2026-11-24T09:30:00Z');
const bytes = (text: string) => new TextEncoder().encode(text);
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

const entry = (name: string, content: string | Uint8Array[], extra: Partial<PackagingEntry> = {}): PackagingEntry => ({
  name,
  modifiedAt,
  open: async function* () {
    for (const chunk of typeof content === 'string' ? [bytes(content)] : content) yield chunk;
  },
  ...extra,
});

async function readAll(output: PackagedOutput): Promise<Uint8Array> {
  return new Uint8Array(await new Response(output.stream).arrayBuffer());
}

/** Reads every output; answers the first failure (from the stream or the digest), or the digests. */
async function settle(entries: PackagingEntry[], options: PackagingOptions): Promise<{ digests: OutputDigest[]; error?: unknown }> {
  const digests: OutputDigest[] = [];
  try {
    for await (const output of (await packageTransfer(entries, options)).outputs) {
      await readAll(output);
      digests.push(await output.digest);
    }
    return { digests };
  } catch (error) {
    return { digests, error };
  }
}

const FORMATS = ['Uncompressed', 'Zipped', 'ZippedWithPassword'] as const;
const optionsFor = (format: (typeof FORMATS)[number]): PackagingOptions => ({ format, ...(format === 'ZippedWithPassword' ? { zipPassword: 'secret' } : {}) });

describe('packageTransfer: options', () => {
  it('refuses ZippedWithPassword without a password, and a bad key, before reading anything', async () => {
    let opened = 0;
    const entries = [entry('a.m4a', 'a', { open: () => ((opened += 1), new Blob(['a']).stream()) })];
    await expect(packageTransfer(entries, { format: 'ZippedWithPassword' })).rejects.toThrow(`zip_password: ${fieldRequired('zip_password')}`);
    await expect(packageTransfer(entries, { format: 'ZippedWithPassword', zipPassword: '' })).rejects.toBeInstanceOf(PackagingError);
    await expect(packageTransfer(entries, { format: 'Zipped', pgpPublicKey: 'not a key' })).rejects.toThrow(`pgp_key: ${MESSAGES.pgpKey}`);
    await expect(packageTransfer(entries, { format: 'Zipped', archiveName: 'transfer.tar' })).rejects.toThrow('archive_name: must end with .zip');
    expect(opened).toBe(0);
  });
});

describe('packageTransfer: digests', () => {
  it('records each entry’s plaintext size and SHA-256, and the output’s own, for every format', async () => {
    const chunks = [bytes('first part, '), bytes(''), bytes('second part')];
    const whole = bytes('first part, second part');
    for (const format of FORMATS) {
      const packaging = await packageTransfer([entry('calls/one.m4a', chunks), entry('empty.m4a', '')], optionsFor(format));
      const outputs: { digest: OutputDigest; body: Uint8Array }[] = [];
      for await (const output of packaging.outputs) outputs.push({ body: await readAll(output), digest: await output.digest });
      const entries = outputs.flatMap((output) => output.digest.entries);
      expect(entries, format).toEqual([
        { name: 'calls/one.m4a', size: whole.length, sha256: sha256(whole) },
        { name: 'empty.m4a', size: 0, sha256: sha256(new Uint8Array()) },
      ]);
      for (const { digest, body } of outputs) {
        expect(digest.sha256).toBe(sha256(body));
        expect(digest.size).toBe(body.length);
      }
      expect(outputs.map((output) => output.digest.name)).toEqual(format === 'Uncompressed' ? ['calls/one.m4a', 'empty.m4a'] : ['transfer.zip']);
    }
  });
});

describe('packageTransfer: hostile entries fail the output, never deliver it as whole', () => {
  it('refuses names that would escape the receiver’s folder, control characters and duplicates', async () => {
    const hostile = ['../etc/passwd', '/abs.m4a', 'a//b.m4a', 'a/./b.m4a', 'dir\\file.m4a', 'line\nbreak.m4a', ''];
    for (const format of FORMATS) {
      for (const name of hostile) {
        const { error } = await settle([entry(name, 'x')], optionsFor(format));
        expect(error, `${format} ${JSON.stringify(name)}`).toBeInstanceOf(PackagingError);
        expect((error as PackagingError).lines[0]).toMatch(/^entries: /);
      }
      const { error } = await settle([entry('same.m4a', 'x'), entry('same.m4a', 'y')], optionsFor(format));
      expect((error as PackagingError).lines).toEqual(['entries: "same.m4a" appears twice; each delivered name must be unique']);
    }
  });

  it('fails when a source gives fewer or more bytes than declared', async () => {
    for (const format of FORMATS) {
      const short = await settle([entry('short.m4a', 'abc', { size: 4 })], optionsFor(format));
      expect((short.error as PackagingError).lines, format).toEqual(['short.m4a: the source gave 3 bytes, not the 4 declared']);
      const long = await settle([entry('long.m4a', 'abcde', { size: 4 })], optionsFor(format));
      expect(long.error, format).toBeDefined();
      expect(long.digests.flatMap((digest) => digest.entries.map((item) => item.name))).not.toContain('long.m4a');
    }
  });

  it('fails when a source breaks mid-way, yields text instead of bytes or is not a stream', async () => {
    const broken: PackagingEntry = {
      name: 'broken.m4a',
      modifiedAt,
      open: async function* () {
        yield bytes('some bytes');
        throw new Error('S3 connection reset');
      },
    };
    const text: PackagingEntry = {
      name: 'text.m4a',
      modifiedAt,
      open: async function* () {
        yield 'a string' as unknown as Uint8Array;
      },
    };
    const notBytes: PackagingEntry = { name: 'nothing.m4a', modifiedAt, open: () => 42 as unknown as ByteSource };
    for (const format of FORMATS) {
      expect((await settle([broken], optionsFor(format))).error, format).toMatchObject({ message: 'S3 connection reset' });
      expect((await settle([text], optionsFor(format))).error, format).toBeInstanceOf(PackagingError);
      expect((await settle([notBytes], optionsFor(format))).error, format).toBeInstanceOf(PackagingError);
    }
  });

  it('releases the source when the consumer cancels the output', async () => {
    for (const format of FORMATS) {
      let released = false;
      const endless: PackagingEntry = {
        name: 'endless.m4a',
        modifiedAt,
        open: async function* () {
          try {
            for (;;) yield randomBytes(64 * 1024);
          } finally {
            released = true;
          }
        },
      };
      for await (const output of (await packageTransfer([endless], optionsFor(format))).outputs) {
        const reader = output.stream.getReader();
        await reader.read();
        await reader.cancel(new Error('upload aborted'));
        await expect(output.digest).rejects.toBeDefined();
        break;
      }
      // Not a timing claim: the zip notices the cancelled output at its next write, the source is released then.
      await vi.waitFor(() => expect(released, format).toBe(true), { timeout: 10_000 });
    }
  });
});
