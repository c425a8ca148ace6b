// zod/mini: the same engine as `zod`, tree-shakable, so parsing the config costs the first page little.
import { z } from 'zod/mini';

/**
 * The portal's runtime configuration, parsed with zod once at start.
 *
 * Sources, later ones winning key by key: defaults, Vite env (`VITE_*`, fixed at build time),
 * `window.__VERITY_CONFIG__` (set by `/config.js`, replaced per deployment without a rebuild).
 * A bad value stops the app with a message naming the key: a portal silently talking to the wrong
 * base is worse than one that does not start.
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An API base: a same-origin absolute path (`/api/v1`) or an `https://` URL (`http://` only on loopback).
 * Protocol-relative `//host` is refused: it reads like a path but points at another origin.
 * A trailing slash is dropped so `base + path` never doubles it.
 */
export const ApiBase = z.pipe(
  z.string().check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.refine(isAllowedBase, 'must be a path starting with "/" or an https:// URL'),
  ),
  z.transform((value) => value.replace(/\/+$/, '')),
);

function isAllowedBase(value: string): boolean {
  if (/[\s\\?#]/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

export const RuntimeConfig = z.pipe(
  z.strictObject({
    /** Admin surface base; the tenant (`{client}`) follows it. */
    apiBase: z._default(ApiBase, '/api/v1'),
    /** Client (tenant data) surface base; defaults to `apiBase` (DESIGN.md §4: one namespace holds both). */
    clientApiBase: z.optional(ApiBase),
    /** Provider console base. */
    internalBase: z._default(ApiBase, '/internal/v1'),
    /** Device-facing base (the portal does not call it; the device simulator may reuse the client). */
    deviceBase: z._default(ApiBase, '/device/v1'),
    /** `local` never starts browser monitoring. Unset: local on a loopback host, aws elsewhere. */
    mode: z.optional(z.enum(['local', 'aws'])),
    /**
     * Browser monitoring (aws-rum-web) starts only when all three are supplied (spec point 7): the app monitor's id,
     * its region, and the client configuration (identity pool, guest role, endpoint, telemetries; AwsRumConfig).
     */
    rumApplicationId: z.optional(z.string().check(z.regex(/^[0-9a-f-]{36}$/, 'must be an app monitor id (a UUID)'))),
    rumRegion: z.optional(z.string().check(z.regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region such as eu-west-2'))),
    rumConfig: z.optional(z.record(z.string(), z.unknown())),
    /**
     * Map tiles for the GPS screen, a Leaflet URL template (`https://tiles.example.com/{z}/{x}/{y}.png`). Unset: the
     * track is drawn without a base map (the local stack has no internet).
     */
    mapTileUrl: z.optional(z.string().check(z.regex(/^https:\/\/[^\s]+\{z\}[^\s]*$/, 'must be an https:// URL template with {z}, {x} and {y}'))),
    mapAttribution: z.optional(z.string().check(z.maxLength(500))),
  }),
  z.transform(({ clientApiBase, ...rest }) => ({ ...rest, clientApiBase: clientApiBase ?? rest.apiBase })),
);
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;

/** Raised when the configuration does not parse; its message lists `key: problem` lines. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly lines: readonly string[]) {
    super(`Invalid Verity configuration:\n${lines.join('\n')}`);
  }
}

/** The sources `loadConfig` reads; injectable for tests. */
export interface ConfigSources {
  env?: Partial<Record<string, string | boolean | undefined>>;
  /** `window.__VERITY_CONFIG__`, whatever it holds (it is untrusted until parsed). */
  runtime?: unknown;
}

/** Parses the configuration from the given sources. Throws ConfigError when anything is wrong. */
export function parseConfig({ env = {}, runtime }: ConfigSources): RuntimeConfig {
  if (runtime !== undefined && runtime !== null && (typeof runtime !== 'object' || Array.isArray(runtime))) {
    throw new ConfigError(['window.__VERITY_CONFIG__: must be an object']);
  }
  const fromEnv = dropUndefined({
    apiBase: env.VITE_API_BASE,
    clientApiBase: env.VITE_CLIENT_API_BASE,
    internalBase: env.VITE_INTERNAL_BASE,
    deviceBase: env.VITE_DEVICE_BASE,
  });
  const merged = { ...fromEnv, ...dropUndefined((runtime ?? {}) as Record<string, unknown>) };
  const result = RuntimeConfig.safeParse(merged);
  if (!result.success) {
    throw new ConfigError(result.error.issues.flatMap(describeIssue));
  }
  return result.data;
}

/**
 * zod/mini ships no locale (that is what keeps it small), so its own messages read "Invalid input";
 * the cases a config author meets get words here. Messages set by ApiBase pass through.
 */
function describeIssue(issue: z.core.$ZodIssue): string[] {
  const at = (path: readonly PropertyKey[]) => path.map(String).join('.') || '(config)';
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${at([...issue.path, key])}: unknown setting`);
  if (issue.code === 'invalid_type') return [`${at(issue.path)}: must be a ${issue.expected}`];
  return [`${at(issue.path)}: ${issue.message}`];
}

function dropUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

let loaded: RuntimeConfig | undefined;

/** The configuration of this page, parsed on first use from Vite env and `window.__VERITY_CONFIG__`. */
export function getConfig(): RuntimeConfig {
  loaded ??= parseConfig({
    env: import.meta.env as ConfigSources['env'],
    runtime: typeof window === 'undefined' ? undefined : window.__VERITY_CONFIG__,
  });
  return loaded;
}
