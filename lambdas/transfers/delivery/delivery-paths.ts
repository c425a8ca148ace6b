import { entryNameProblem } from '../packaging/entry-names.ts';
import { DeliveryError } from './types.ts';

/** Suffix of the name a file is written under until it is complete (SFTP); a receiver's tools can skip such names. */
export const PARTIAL_SUFFIX = '.partial';

/**
 * Refuses a path that could leave the target's folder or mean two things: the packager's rule for delivered names
 * (relative, forward slashes, no empty, `.` or `..` segment, no control character or backslash, NUL included).
 */
export function checkDeliveryPath(path: string): void {
  const problem = entryNameProblem(path);
  if (problem !== undefined) throw new DeliveryError(`path: ${JSON.stringify(path)} ${problem}`, { retryable: false });
  if (path.endsWith(PARTIAL_SUFFIX)) {
    throw new DeliveryError(`path: ${JSON.stringify(path)} must not end with ${PARTIAL_SUFFIX} (the name of a file still being written)`, {
      retryable: false,
    });
  }
}

/** Joins a checked relative path under a folder written with or without a trailing slash (`/`, `/a/b/`, `a`). */
export function underFolder(folder: string, path: string): string {
  const base = folder.replace(/\/+$/, '');
  return base === '' ? path : `${base}/${path}`;
}
