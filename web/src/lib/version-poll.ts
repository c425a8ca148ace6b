/**
 * New-version detection (spec point 4: polling every hour). The build writes `/version.json` with its id; a page
 * whose id differs from the one now deployed offers a reload. Polling stops once a new version is seen.
 */
export const VERSION_POLL_MS = 60 * 60 * 1000;
export const VERSION_FILE = '/version.json';

/** True when the deployed version is readable and differs from `current`. Network trouble is not a new version. */
export async function isNewVersionDeployed(current: string, fetcher: typeof fetch = fetch): Promise<boolean> {
  try {
    const response = await fetcher(VERSION_FILE, { cache: 'no-store' });
    if (!response.ok) return false;
    const body: unknown = await response.json();
    const deployed = typeof body === 'object' && body !== null ? (body as { version?: unknown }).version : undefined;
    return typeof deployed === 'string' && deployed !== '' && deployed !== current;
  } catch {
    return false;
  }
}

/** Polls every hour; calls `onNewVersion` once. Returns a function that stops polling. */
export function pollForNewVersion(current: string, onNewVersion: () => void, fetcher?: typeof fetch): () => void {
  const timer = setInterval(() => {
    void isNewVersionDeployed(current, fetcher).then((isNew) => {
      if (!isNew) return;
      clearInterval(timer);
      onNewVersion();
    });
  }, VERSION_POLL_MS);
  return () => clearInterval(timer);
}
