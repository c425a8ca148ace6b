import { config } from 'zod/mini';

/**
 * Zod compiles fast object parsers with `new Function` when it may, and to find out whether it may it tries one. The
 * portal's Content Security Policy forbids eval (no 'unsafe-eval'), so that probe is refused and reported as a CSP
 * violation on every page, though zod catches the throw. `jitless` skips the probe and the compiling: the portal's
 * payloads are small, so the interpreted parser costs nothing a user sees. Imported first by main.tsx, before any
 * schema parses.
 */
config({ jitless: true });
