import type { TransferFileFormat } from '#shared/constants/account.ts';

/** Bytes from a source: a web stream, a Node stream or any async iterable of byte chunks. */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** One recording to package. `open` is called only when its turn comes, so a long list holds no open streams. */
export interface PackagingEntry {
  /** Its path in the delivery: inside the zip, or the delivered file's name when Uncompressed. Forward slashes. */
  name: string;
  /** Plaintext bytes, when known; the packager fails the output if the source yields a different count. */
  size?: number;
  modifiedAt: Date;
  open(): ByteSource | Promise<ByteSource>;
}

export interface PackagingOptions {
  format: TransferFileFormat;
  /** Required for ZippedWithPassword (AES-256), ignored otherwise. */
  zipPassword?: string;
  /** An armoured public key: every output is encrypted to it (binary OpenPGP, `.pgp` appended to its name). */
  pgpPublicKey?: string;
  /** The archive's name for the zipped formats; `transfer.zip` by default. */
  archiveName?: string;
}

/** What the packager read of one entry: its plaintext size and SHA-256. */
export interface EntryDigest {
  name: string;
  size: number;
  sha256: string;
}

/** What one delivered file turned out to be, once its stream has been read to the end. */
export interface OutputDigest {
  name: string;
  size: number;
  /** SHA-256 of the bytes of `stream`, i.e. of the delivered file. */
  sha256: string;
  /** The entries it holds, in order (one when Uncompressed). */
  entries: EntryDigest[];
}

/**
 * One file to deliver. Read `stream` to its end (e.g. upload it), then await `digest`. The stream is produced as it
 * is read: nothing is held whole, and the next output is not started until this one's stream is finished.
 */
export interface PackagedOutput {
  name: string;
  stream: ReadableStream<Uint8Array>;
  /** Settles when the stream ends; rejects with the cause if packaging failed or the stream was cancelled. */
  digest: Promise<OutputDigest>;
}

export interface Packaging {
  /** The fingerprint of the key the outputs are encrypted to (upper-case hex), when PGP is on. */
  pgpFingerprint?: string;
  outputs: AsyncIterable<PackagedOutput>;
}
