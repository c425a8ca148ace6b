/**
 * Chunk-load recovery (spec point 4): after a deployment the old page may ask for route chunks that
 * no longer exist. The app then reloads once per path, and not again within 10 s, so a chunk that is
 * truly missing shows the error page instead of a reload loop.
 */

export const CHUNK_RELOAD_GUARD_MS = 10_000;
const STORAGE_KEY = 'verity.chunk-reload';

/** The part of `Storage` this module needs (sessionStorage in the browser, a fake in tests). */
export interface ReloadStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** True for the errors browsers and Vite raise when a lazily imported chunk cannot be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
      error.message,
    ) || error.name === 'ChunkLoadError'
  );
}

/**
 * Decides whether to reload for a chunk error on `path`, and records the attempt when it says yes.
 * Unreadable or tampered storage counts as "never reloaded", but the guard still applies afterwards.
 */
export function claimChunkReload(path: string, now: number, storage: ReloadStorage): boolean {
  let last: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? '{}');
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) last = parsed as Record<string, unknown>;
  } catch {
    // Corrupt entry: start afresh.
  }
  const previous = Object.hasOwn(last, path) ? last[path] : undefined;
  if (typeof previous === 'number' && now - previous >= 0 && now - previous < CHUNK_RELOAD_GUARD_MS) return false;
  try {
    // Only entries still inside the guard matter; dropping the rest keeps the record small.
    const recent = Object.entries(last).filter(
      ([, at]) => typeof at === 'number' && now - at >= 0 && now - at < CHUNK_RELOAD_GUARD_MS,
    );
    storage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries([...recent, [path, now]])));
  } catch {
    // Storage full or blocked: without a record we cannot guard against a loop, so do not reload.
    return false;
  }
  return true;
}

/** Reloads the page for a chunk error if the guard allows; returns whether it did. */
export function reloadOnChunkError(error: unknown): boolean {
  if (typeof window === 'undefined' || !isChunkLoadError(error)) return false;
  if (!claimChunkReload(window.location.pathname, Date.now(), window.sessionStorage)) return false;
  window.location.reload();
  return true;
}
