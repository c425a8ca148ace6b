/**
 * Largest file the portal hashes before its upload. The browser's SHA-256 (`crypto.subtle.digest`) takes the whole
 * file at once, with no incremental form, so the file is read into memory: past this size that costs too much, and
 * the upload link is bound to the size alone (`npm run migrate` streams the hash of any size).
 */
export const MAX_HASHED_BYTES = 256 * 1024 * 1024;

/** The file's SHA-256 (hex), or undefined when it is larger than the portal hashes. */
export async function fileSha256(file: Blob, maxBytes = MAX_HASHED_BYTES): Promise<string | undefined> {
  if (file.size > maxBytes) return undefined;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
