/**
 * Typed errors, mapped to HTTP in one place (`toErrorResponse`). Code throws the error that names the situation;
 * it never builds an error body itself (DESIGN.md §9).
 */

/** An error that stands for one HTTP status. `lines` are the `path: message` lines a 4xx body shows. */
export class HttpError extends Error {
  /**
   * Whether the body may show `lines`. Only statuses under 500 do by default: a 5xx says nothing internal.
   * NotImplementedError opts in because its message names only public contract facts (method, path, id).
   */
  readonly expose: boolean;

  constructor(
    readonly status: number,
    readonly lines: readonly string[],
    options?: { cause?: unknown; expose?: boolean },
  ) {
    super(lines.join('\n'), { cause: options?.cause });
    this.expose = options?.expose ?? status < 500;
  }
}

/** 400: input does not match the contract; one `path: message` line per problem. */
export class ValidationError extends HttpError {
  override readonly name = 'ValidationError';
  constructor(lines: readonly string[]) {
    super(400, lines.length > 0 ? lines : ['Invalid request']);
  }
}

/** 401: no credentials, or credentials that fail verification. The reason is short and names no secret. */
export class UnauthorizedError extends HttpError {
  override readonly name = 'UnauthorizedError';
  constructor(reason = 'Unauthorized') {
    super(401, [reason]);
  }
}

/** 403: authenticated, but not allowed here (wrong tenant, missing permission); several reasons give one line each. */
export class ForbiddenError extends HttpError {
  override readonly name = 'ForbiddenError';
  constructor(reason: string | readonly string[] = 'Forbidden') {
    super(403, typeof reason === 'string' ? [reason] : reason.length > 0 ? reason : ['Forbidden']);
  }
}

/** 404: the addressed thing does not exist (or the caller may not know it does). */
export class NotFoundError extends HttpError {
  override readonly name = 'NotFoundError';
  constructor(message = 'Not found') {
    super(404, [message]);
  }
}

/** 409: the request conflicts with the current state (a condition on a write failed). */
export class ConflictError extends HttpError {
  override readonly name: string = 'ConflictError';
  /** Several conflicting parts of one request (a report's entries) give one `path: message` line each. */
  constructor(message: string | readonly string[] = 'Conflict') {
    super(409, typeof message === 'string' ? [message] : message.length > 0 ? message : ['Conflict']);
  }
}

/** 413: the body is over the size limit. */
export class PayloadTooLargeError extends HttpError {
  override readonly name: string = 'PayloadTooLargeError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(413, [message], options);
  }
}

/** 415: a request body that is not declared as JSON (`Content-Type: application/json`). */
export class UnsupportedMediaTypeError extends HttpError {
  override readonly name = 'UnsupportedMediaTypeError';
  constructor(message: string) {
    super(415, [message]);
  }
}

/**
 * 413: what the request would store is over DynamoDB's 400 KB item limit. The contract's bounds keep every valid
 * request under it, so this is the last line of defence, never a 500. `attribute` is the stored attribute that took
 * the most room; `within(body)` names the request field it came from when the body has a field of that name.
 */
export class ItemTooLargeError extends PayloadTooLargeError {
  override readonly name = 'ItemTooLargeError';
  constructor(
    readonly attribute?: string,
    options?: { cause?: unknown; field?: string },
  ) {
    super(ItemTooLargeError.line(attribute, options?.field), options);
  }

  private static line(attribute: string | undefined, field: string | undefined): string {
    const message = 'Too large to store: the record would exceed the 400 KB item limit';
    if (field !== undefined) return `body.${field}: ${message}`;
    return attribute === undefined ? `body: ${message}` : `body: ${message} (its largest part is ${attribute})`;
  }

  /** The same refusal with the path of the body field the largest attribute came from, when the body has one. */
  within(body: unknown): ItemTooLargeError {
    const attribute = this.attribute;
    const named = attribute !== undefined && typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, attribute);
    return named ? new ItemTooLargeError(attribute, { cause: this.cause, field: attribute }) : this;
  }
}

/**
 * 400: a number DynamoDB cannot store (beyond ±(2^53 − 1), or below 1e-130 in size). The contract's safe numbers
 * refuse these first; this catches any that reach the table another way, so they are a 400, not a 500.
 */
export class UnstorableNumberError extends HttpError {
  override readonly name = 'UnstorableNumberError';
  constructor(options?: { cause?: unknown }) {
    super(400, [`body: Contains a number that cannot be stored (numbers must be 0, or between 1e-130 and ${Number.MAX_SAFE_INTEGER} in size)`], options);
  }
}

/** 501: a declared endpoint whose capability is not built yet. Exposed: the message names only the contract. */
export class NotImplementedError extends HttpError {
  override readonly name = 'NotImplementedError';
  constructor(message: string) {
    super(501, [message], { expose: true });
  }
}

/** 503: a dependency (identity provider, table) is unreachable. The detail stays in the log. */
export class ServiceUnavailableError extends HttpError {
  override readonly name = 'ServiceUnavailableError';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(503, [detail], options);
  }
}

/** 500 for a bug we detected ourselves (e.g. a response that breaks its own contract). The detail is logged only. */
export class InternalError extends HttpError {
  override readonly name = 'InternalError';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(500, [detail], options);
  }
}

/** The JSON body of every error answer. */
export interface ErrorBody {
  /** The HTTP status. */
  error_code: number;
  /** The lines joined by '\n'. */
  message: string;
  /** The same lines, one per problem (absent on 5xx). */
  errors?: string[];
}

const STATUS_TEXT: Record<number, string> = {
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Maps any thrown value to a status and body. Anything that is not an HttpError is a 500 that shows nothing. */
export function toErrorResponse(error: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  const known = error instanceof HttpError ? error : undefined;
  const status = known?.status ?? 500;
  const headers: Record<string, string> = {};
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  if (known?.expose) {
    return { status, headers, body: { error_code: status, message: known.lines.join('\n'), errors: [...known.lines] } };
  }
  return { status, headers, body: { error_code: status, message: STATUS_TEXT[status] ?? 'Internal Server Error' } };
}
