/** The locale cookie (spec point 9: kept 365 days). The portal is English only, so it always says en-GB. */
export const LOCALE_COOKIE = 'verity-locale';
export const LOCALE = 'en-GB';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The cookie's text: strict same-site, secure outside plain-HTTP local runs. */
export function localeCookie(secure: boolean): string {
  return `${LOCALE_COOKIE}=${LOCALE}; Max-Age=${ONE_YEAR_SECONDS}; Path=/; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function setLocaleCookie(): void {
  document.cookie = localeCookie(window.location.protocol === 'https:');
}
