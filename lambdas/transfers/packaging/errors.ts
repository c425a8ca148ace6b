/**
 * A transfer cannot be packaged as configured (a bad key, a missing password, an unsafe entry name, a source that
 * yields other bytes than declared). `lines` are `path: message` lines: the caller shows them as a 400 when the
 * input came from a request, or records them as the transfer's error message when the job hits them.
 */
export class PackagingError extends Error {
  override readonly name = 'PackagingError';

  constructor(
    readonly lines: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(lines.join('\n'), options);
  }
}
