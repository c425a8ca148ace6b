/**
 * Errors the API client raises. Kept apart from the client (and free of zod) so the root route's
 * error page can recognise them without pulling the contract into the first bundle.
 */

/**
 * A non-2xx answer. `lines` are the server's `path: message` lines (DESIGN.md §9), codes and all, for forms and logs;
 * `message` is what a person reads: the same lines in words when the client put them so (lib/error-words.ts), which
 * every screen shows (`error.message`) without knowing the codes.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** The body's `error_code` (the HTTP code unless the server sent another). */
    readonly errorCode: number | string,
    /** One line per problem; never empty. */
    readonly lines: readonly string[],
    /** The endpoint's registry id, for logs. */
    readonly endpointId: string,
    /** The lines in words for a person; the lines as they are when not given. */
    words: readonly string[] = lines,
  ) {
    super(words.join('\n'));
  }
}

/** A 2xx answer whose body does not match the endpoint's response schema (spec point 5, "Response shape check"). */
export class ResponseShapeError extends Error {
  override readonly name = 'ResponseShapeError';
  constructor(
    message: string,
    /** The endpoint's registry id, for logs. */
    readonly endpointId: string,
  ) {
    super(message);
  }
}

/** The HTTP status an error stands for on the error page: its own for ApiError, else none. */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.status;
  if (typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number') {
    return error.status;
  }
  return undefined;
}
