import { PackagingError } from './errors.ts';

/** Longest entry name accepted: zip stores names in 16 bits; S3 keys stop at 1,024 bytes with the prefix. */
const MAX_NAME_BYTES = 1000;
// Control characters would garble listings and CSV manifests; a backslash is a separator to Windows extractors.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/**
 * Why an entry name cannot be delivered, or undefined when it can. A delivered name must stay inside the folder it is
 * extracted or uploaded to: relative, forward slashes only, no empty, `.` or `..` segment (a zip entry named
 * `../x` would write outside the receiver's folder when extracted).
 */
export function entryNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) return `must be at most ${MAX_NAME_BYTES} bytes`;
  if (UNSAFE_CHARACTERS.test(name)) return 'must not contain control characters or backslashes';
  if (name.startsWith('/')) return 'must be a relative path';
  if (name.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return 'must not contain empty, "." or ".." path segments';
  return undefined;
}

/** Checks each name as it comes and refuses a second entry of the same name (it would overwrite the first). */
export function nameGuard(): (name: string) => void {
  const seen = new Set<string>();
  return (name) => {
    const problem = entryNameProblem(name);
    if (problem !== undefined) throw new PackagingError([`entries: ${JSON.stringify(name)} ${problem}`]);
    if (seen.has(name)) throw new PackagingError([`entries: ${JSON.stringify(name)} appears twice; each delivered name must be unique`]);
    seen.add(name);
  };
}
