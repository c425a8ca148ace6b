import { AuthExpiredError } from './session/session.ts';
import { ApiError, ResponseShapeError } from './api-error.ts';

/** Spec point 8's wording. */
export const ERROR_TITLE = 'An error occurred';
export const NOT_FOUND_DESCRIPTION = 'Data not found';
export const AUTH_EXPIRED = 'Authentication expired';

export interface ErrorNotice {
  title: string;
  message: string;
  /** The user must sign in again (no token, a refused refresh, or the API answered 401). */
  signInAgain: boolean;
}

/**
 * What the user is told about a failed call (spec point 8): "An error occurred" with "Data not found" on a 404 the
 * client cannot say more precisely ("This recording was not found"), and otherwise the server's lines in words
 * (lib/error-words.ts: what was refused and why, never an internal code); an expired session gets its own title and a
 * trip to /sign-in.
 */
export function errorNotice(error: unknown): ErrorNotice {
  if (error instanceof AuthExpiredError || (error instanceof ApiError && error.status === 401)) {
    return { title: AUTH_EXPIRED, message: 'Please sign in again.', signInAgain: true };
  }
  if (error instanceof ApiError) {
    // The API client put the lines in words (lib/error-words.ts); words that differ from the lines say more than a 404.
    const precise = error.message !== error.lines.join('\n');
    return { title: ERROR_TITLE, message: error.status === 404 && !precise ? NOT_FOUND_DESCRIPTION : error.message, signInAgain: false };
  }
  if (error instanceof ResponseShapeError) return { title: ERROR_TITLE, message: error.message, signInAgain: false };
  const message = error instanceof Error && error.message !== '' ? error.message : 'Something went wrong. Please try again.';
  return { title: ERROR_TITLE, message, signInAgain: false };
}
