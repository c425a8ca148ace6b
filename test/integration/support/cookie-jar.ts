/**
 * The smallest cookie jar a code flow needs: one host, names to values, honouring deletion (Max-Age=0 or a past
 * Expires). Paths are ignored on purpose: every cookie goes back to the same origin, which the provider tolerates.
 */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  /** Stores the `Set-Cookie` headers of a response. */
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const equals = pair.indexOf('=');
      if (equals <= 0) continue;
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', raw = ''] = attribute.split('=').map((part) => part.trim());
        if (key.toLowerCase() === 'max-age') return Number(raw) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(raw) <= Date.now();
        return false;
      });
      if (expired || value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  /** The `Cookie` header to send, or undefined when the jar is empty. */
  header(): string | undefined {
    if (this.#cookies.size === 0) return undefined;
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}
