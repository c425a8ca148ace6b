/** Business limits and timings of spec point 9 (and the few decided where the spec says "not shown"). */

/** A payload uploaded more than this many days after recording is late. */
export const LATE_PAYLOAD_DAYS = 7;
/** Most references one bulk request (alerts, payloads) may carry. */
export const BULK_LIMIT = 100;
/** Most tags one group may carry. */
export const GROUP_TAG_LIMIT = 50;
/** Longest tag value. */
export const TAG_VALUE_MAX_LENGTH = 255;
/** Most second parties a call may carry. */
export const CALL_PARTIES_LIMIT = 1000;
/** Most pause times an interview may carry. */
export const INTERVIEW_PAUSE_TIMES_LIMIT = 1000;
/** Characters of a response quoted in a response-shape error. */
export const RESPONSE_EXCERPT_LENGTH = 200;
/** Licence limits per service are integers in this range. */
export const LICENCE_LIMIT_MIN = 0;
export const LICENCE_LIMIT_MAX = 100_000;
/** Expected device count of a new device user when not given. */
export const DEFAULT_EXPECTED_DEVICE_COUNT = 1;

/**
 * List page size. The spec says page sizes are "not shown": we decide a default of 50 and a maximum of 100
 * (the same as the bulk limit), so one page never grows past what a single DynamoDB Query returns cheaply.
 */
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 100;

/** Session: a token is treated as expired this many ms early. */
export const TOKEN_EXPIRY_SKEW_MS = 5_000;
/** Session: one refresh and one profile reload in flight; each reusable after this many ms. */
export const SESSION_DEBOUNCE_MS = 1_000;
/** New app versions are polled for this often. */
export const VERSION_POLL_INTERVAL_MS = 60 * 60 * 1000;
/** The app reloads once per path on a chunk-load error, guarded for this long. */
export const CHUNK_RELOAD_GUARD_MS = 10_000;
/** Locale cookie lifetime. */
export const LOCALE_COOKIE_DAYS = 365;
/** Where the app goes after entering and after ending support mode. */
export const SUPPORT_MODE_ENTER_ROUTE = '/dashboard';
export const SUPPORT_MODE_END_ROUTE = '/internal/support';
/** The provider's own client (tenant id of staff). */
export const ADMIN_CLIENT = 'admin';
/** Authorization scheme prefix for staff calls in support mode: `internal-{request_reference} <token>`. */
export const SUPPORT_AUTH_PREFIX = 'internal-';

/** Query-string parsing defaults. */
export const QUERY_ARRAY_LIMIT = 20;
export const QUERY_DEPTH_LIMIT = 5;
export const QUERY_PARAMETER_LIMIT = 1000;

/** Browser monitoring defaults (spec point 9). */
export const MONITORING_DEFAULTS = {
  batchLimit: 100,
  eventCacheSize: 200,
  /** 0 or less means unlimited. */
  sessionEventLimit: 200,
  sessionLengthMs: 30 * 60 * 1000,
  sampleRate: 1,
  dispatchIntervalMs: 5_000,
  retries: 2,
  retryBackoffStartMs: 2_000,
  userIdRetentionDays: 30,
  routeChangeTimeoutMs: 10_000,
  routeChangeCompleteMs: 100,
  credentialRenewBeforeExpiryMs: 30_000,
  region: 'us-west-2',
  allowCookies: false,
  cookie: { sameSite: 'Strict', secure: true, path: '/' },
  maxSampledResourcesPerSession: 10,
  stackTraceLength: 200,
  stackTraceLengthLong: 1000,
  webVitals: {
    fcpMs: [1800, 3000],
    lcpMs: [2500, 4000],
    fidMs: [100, 300],
    cls: [0.1, 0.25],
  },
  presignedBeaconValidityMs: 60_000,
  signingMaxExpiryMs: 7 * 24 * 60 * 60 * 1000,
} as const;
