/**
 * When a pre-signed S3 link stops working, read from the link itself (SigV4: `X-Amz-Date` plus `X-Amz-Expires`
 * seconds), so the portal never keeps a link past its life whatever lifetime the server chose. Undefined when the
 * link does not say.
 */
export function linkExpiresAt(url: string): number | undefined {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return undefined;
  }
  const signed = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(params.get('X-Amz-Date') ?? '');
  const seconds = Number(params.get('X-Amz-Expires'));
  if (signed === null || !Number.isInteger(seconds) || seconds <= 0) return undefined;
  const [, year, month, day, hour, minute, second] = signed.map(Number) as number[];
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second!) + seconds * 1000;
}

/** The earliest expiry of the links, or `fallback` when none says. */
export function earliestExpiry(urls: readonly string[], fallback: number): number {
  const times = urls.map(linkExpiresAt).filter((time): time is number => time !== undefined);
  return times.length === 0 ? fallback : Math.min(...times);
}
