/**
 * Leaving the portal for another origin (spec point 8): "navigating to an external URL without explicit opt-in is an
 * error". Sign-in is the one place that opts in; a stray link built from data can never send a user elsewhere.
 */
export class ExternalNavigationError extends Error {
  override readonly name = 'ExternalNavigationError';
  constructor(readonly url: string) {
    super(`Navigation to an external URL needs an explicit opt-in: ${url}`);
  }
}

/** True when `url` (absolute or relative to `origin`) points at another origin, or is not http(s) at all. */
export function isExternalUrl(url: string, origin: string): boolean {
  let target: URL;
  try {
    target = new URL(url, origin);
  } catch {
    return true;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return true;
  return target.origin !== new URL(origin).origin;
}

/**
 * Sends the browser to `url`. An external URL throws unless `allowExternal` is set; javascript: and data: URLs are
 * refused even then.
 */
export function navigateTo(
  url: string,
  options: { allowExternal?: boolean; location?: Pick<Location, 'assign' | 'origin'> } = {},
): void {
  const location = options.location ?? window.location;
  if (isExternalUrl(url, location.origin)) {
    const protocol = safeProtocol(url, location.origin);
    if (!options.allowExternal || (protocol !== 'http:' && protocol !== 'https:')) throw new ExternalNavigationError(url);
  }
  location.assign(url);
}

function safeProtocol(url: string, origin: string): string | undefined {
  try {
    return new URL(url, origin).protocol;
  } catch {
    return undefined;
  }
}
