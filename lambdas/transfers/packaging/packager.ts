import { fieldRequired } from '#shared/contract/messages.ts';
import { hashedStream, toByteStream } from './byte-streams.ts';
import { nameGuard } from './entry-names.ts';
import { PackagingError } from './errors.ts';
import { encryptToKey } from './pgp-encrypt.ts';
import { parsePgpPublicKey, type ParsedPgpKey } from './pgp-key.ts';
import type { EntryDigest, OutputDigest, PackagedOutput, Packaging, PackagingEntry, PackagingOptions } from './types.ts';
import { zipArchive } from './zip-archive.ts';

const DEFAULT_ARCHIVE_NAME = 'transfer.zip';

/**
 * Packages a transfer's recordings in the config's file format, as streams produced while they are read:
 * - Uncompressed: one output per entry, named as the entry;
 * - Zipped: one deflated zip; ZippedWithPassword: the same with AES-256 (opens in 7-Zip with the password);
 * - with a PGP key, each output is encrypted to it (binary OpenPGP) and `.pgp` is appended to its name.
 *
 * Options are checked before anything is read (a missing password, a bad key: `path: message` lines in a
 * PackagingError). Entries are opened one at a time, in order, when their turn comes. Outputs come one at a time:
 * read each output's stream to its end before asking for the next. Every output is hashed as it streams, and every
 * entry's plaintext size and SHA-256 recorded, in the output's `digest`, for the manifest.
 */
export async function packageTransfer(entries: AsyncIterable<PackagingEntry> | Iterable<PackagingEntry>, options: PackagingOptions): Promise<Packaging> {
  const archiveName = options.archiveName ?? DEFAULT_ARCHIVE_NAME;
  const problems: string[] = [];
  if (options.format === 'ZippedWithPassword' && (options.zipPassword ?? '') === '') problems.push(`zip_password: ${fieldRequired('zip_password')}`);
  if (options.format !== 'Uncompressed' && !archiveName.endsWith('.zip')) problems.push('archive_name: must end with .zip');
  if (problems.length > 0) throw new PackagingError(problems);
  const pgp = options.pgpPublicKey === undefined ? undefined : await parsePgpPublicKey(options.pgpPublicKey);

  const outputs =
    options.format === 'Uncompressed'
      ? uncompressedOutputs(checkedNames(entries), pgp)
      : zippedOutputs(checkedNames(entries), archiveName, options.format === 'ZippedWithPassword' ? options.zipPassword : undefined, pgp);
  return { ...(pgp === undefined ? {} : { pgpFingerprint: pgp.fingerprint }), outputs };
}

async function* checkedNames(entries: AsyncIterable<PackagingEntry> | Iterable<PackagingEntry>): AsyncGenerator<PackagingEntry> {
  const check = nameGuard();
  for await (const entry of entries) {
    check(entry.name);
    yield entry;
  }
}

async function* uncompressedOutputs(entries: AsyncIterable<PackagingEntry>, pgp: ParsedPgpKey | undefined): AsyncGenerator<PackagedOutput> {
  for await (const entry of entries) {
    const plaintext = hashedStream(toByteStream(await entry.open(), entry.name), entry.name, entry.size);
    const entryDigest = plaintext.tally.then((tally): EntryDigest[] => [{ name: entry.name, ...tally }]);
    const output = await deliverable({ name: entry.name, body: plaintext.stream, entries: entryDigest, modifiedAt: entry.modifiedAt }, pgp);
    yield output;
    // The next recording is not opened until this one is delivered (or has failed): one open stream at a time.
    await output.digest.catch(() => undefined);
  }
}

async function* zippedOutputs(
  entries: AsyncIterable<PackagingEntry>,
  archiveName: string,
  password: string | undefined,
  pgp: ParsedPgpKey | undefined,
): AsyncGenerator<PackagedOutput> {
  const archive = zipArchive(entries, password === undefined ? {} : { password });
  yield await deliverable({ name: archiveName, body: archive.stream, entries: archive.entries, modifiedAt: new Date() }, pgp);
}

/** One output before encryption: its name, its bytes, the digests of what it holds, and its time. */
interface PlainOutput {
  name: string;
  body: ReadableStream<Uint8Array>;
  entries: Promise<EntryDigest[]>;
  modifiedAt: Date;
}

/** The output as delivered: encrypted when a key is given, hashed as it is read. */
async function deliverable(plain: PlainOutput, pgp: ParsedPgpKey | undefined): Promise<PackagedOutput> {
  const { name: plainName, body, entries, modifiedAt } = plain;
  const name = pgp === undefined ? plainName : `${plainName}.pgp`;
  const filename = plainName.slice(plainName.lastIndexOf('/') + 1);
  const delivered = pgp === undefined ? body : await encryptToKey(body, pgp.key, { filename, date: modifiedAt });
  const { stream, tally } = hashedStream(delivered, name);
  const digest = Promise.all([tally, entries]).then(([output, entryDigests]): OutputDigest => ({ name, ...output, entries: entryDigests }));
  digest.catch(() => undefined);
  return { name, stream, digest };
}
