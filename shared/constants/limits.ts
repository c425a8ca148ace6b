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

/** Session (spec point 9): a token is treated as expired this many ms early, so no call leaves with a dying one. */
export const TOKEN_EXPIRY_SKEW_MS = 5_000;
/** The provider's own client (tenant id of staff): its users are staff, and "admin" means staff without a support reference. */
export const ADMIN_CLIENT = 'admin';
