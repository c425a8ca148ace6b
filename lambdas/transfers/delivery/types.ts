/** What arrived at the destination: where (relative to the target's root), how many bytes, and their SHA-256. */
export interface DeliveredFile {
  path: string;
  bytes: number;
  /** Lower-case hex SHA-256 of the bytes written, counted as they were sent and checked against the size that arrived. */
  sha256: string;
}

/** The bytes of one delivered file: a web stream (the packager's outputs) or any async iterable of chunks. */
export type DeliveryBody = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** What a caller may do between the last byte sent and the file becoming visible under its name. */
export interface PutOptions {
  /**
   * Called once every byte is sent and its size checked, before the rename (SFTP) or the completing call (S3), with
   * what was sent. The transfer job records there that the file is about to arrive, so a run killed between the
   * arrival and its record finds the file is its own and completes the record instead of writing it again. A
   * throw stops the put: the file never becomes visible and the temporary one is removed.
   */
  beforeCommit?: (sent: { bytes: number; sha256: string }) => Promise<void>;
}

/** A customer's SFTP server or S3 bucket, opened for one transfer run. */
export interface Destination {
  /**
   * Writes `body` under `path` (relative to the target's root/destination) via a temporary name then an atomic
   * rename/copy; resolves with the bytes and SHA-256 of what arrived. Throws DeliveryError (with `retryable: boolean`)
   * on failure. A complete file already under `path` is never replaced: that is a non-retryable DeliveryError. If the
   * body itself fails, its own error is thrown and nothing is left under `path`.
   */
  put(path: string, body: DeliveryBody, options?: PutOptions): Promise<DeliveredFile>;
  /** Whether a complete file already exists under `path` (for resume), with its size. */
  exists(path: string): Promise<{ bytes: number } | undefined>;
  close(): Promise<void>;
}

/**
 * A delivery that did not happen. `retryable`: the same call may succeed later (connection dropped or refused, a
 * timeout, a server-side fault); otherwise the configuration or the destination must change first (refused login,
 * wrong host key, no permission, a file already there, a hostile path).
 */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  readonly retryable: boolean;

  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retryable;
  }
}
