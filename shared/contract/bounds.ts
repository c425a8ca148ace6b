/**
 * Upper bounds on input where the spec names none (its own limits live in `constants/limits.ts`). Every array,
 * free-form object, string and number a request or a sealed device upload can put into a stored item is bounded, so
 * the largest valid item stays under DynamoDB's 400 KB item limit (`bounds.test.ts` builds each largest item and
 * measures it) and hostile input is a 400 naming the field, never a 500. docs/decisions.md lists them with reasons.
 */

/** DynamoDB's item size limit: 400 KB, counted as 400 × 1024 bytes of attribute names and values. */
export const DYNAMODB_ITEM_LIMIT_BYTES = 400 * 1024;

/** Largest safe magnitude of a number on the wire (what JavaScript and the DynamoDB document client hold exactly). */
export const SAFE_NUMBER_MAX = Number.MAX_SAFE_INTEGER;
/** Smallest magnitude (other than 0) DynamoDB stores. */
export const SAFE_NUMBER_MIN_MAGNITUDE = 1e-130;

// ---------------------------------------------------------------- roles

/** Permissions in one role: every action of the catalogue (about 110) allowed or denied, with room to spare. */
export const ROLE_PERMISSIONS_MAX = 200;
/** Group conditions on one permission. */
export const PERMISSION_CONDITIONS_MAX = 20;
/** Group conditions in one role, over all its permissions (a condition of three 255-character matchers is ~0.8 KB). */
export const ROLE_CONDITIONS_MAX = 300;
/** CIDR ranges of a role, a client app or the account defaults. */
export const CIDR_RANGES_MAX = 100;
/** Roles one client app holds. */
export const APP_ROLES_MAX = 50;

// ---------------------------------------------------------------- tags

/** Allowed values of one tag definition (each at most 255 characters, spec point 9): about 256 KB at most. */
export const TAG_VALUES_MAX = 1000;

// ---------------------------------------------------------------- devices

/** Parameters of one device command. */
export const COMMAND_PARAMS_MAX = 20;
/** Length of a command parameter's name. */
export const COMMAND_PARAM_NAME_MAX = 60;
/** Length of a command parameter's text value. */
export const COMMAND_PARAM_TEXT_MAX = 1000;
/** Log lines in one device upload (each line is its own item). */
export const LOG_BATCH_MAX = 1000;
/** Length of one device log line (one item each). */
export const LOG_MESSAGE_MAX = 32 * 1024;
/**
 * Sealed plaintext of one device upload or payload meta: telemetry is stored twice (latest and history), each its own
 * item, and a payload keeps its sealed meta in its item, so 256 KiB leaves room for the rest under 400 KB.
 */
export const SEALED_PLAINTEXT_MAX_BYTES = 256 * 1024;
/**
 * Base64 characters of a sealed meta: the sealed plaintext plus its 12-byte IV and 16-byte tag, in base64 (4
 * characters per 3 bytes, rounded up).
 */
export const SEALED_META_MAX_CHARS = Math.ceil((SEALED_PLAINTEXT_MAX_BYTES + 12 + 16) / 3) * 4;
/** Base64 of wrapped keys and IVs (a KMS ciphertext blob is under 1 KB). */
export const WRAPPED_KEY_MAX_CHARS = 4096;
/** Notes a user types on an interview, photo or video. */
export const PAYLOAD_NOTES_MAX = 10_000;
/** Installed applications in one telemetry report. */
export const TELEMETRY_APPLICATIONS_MAX = 1000;

// ---------------------------------------------------------------- free-form objects

/** Keys of a free-form object a device or app adds to its meta (permissions map, carrier metadata, loose fields). */
export const FREE_FORM_KEYS_MAX = 200;
/** Items of a free-form array inside such an object. */
export const FREE_FORM_ITEMS_MAX = 200;
/** Length of a free-form string (and of a free-form key). */
export const FREE_FORM_TEXT_MAX = 1000;

// ---------------------------------------------------------------- other text

/** An https URL (OIDC issuer, JWKS URI). */
export const URL_MAX = 2048;
/** An S3 destination, SFTP root directory or IAM role ARN. */
export const LOCATION_MAX = 1024;
/** A transfer schedule expression. */
export const SCHEDULE_MAX = 256;
/** An ASCII-armoured PGP public key (a 4096-bit key with signatures is a few KB). */
export const PGP_KEY_MAX = 64 * 1024;
/** Short descriptive text a device sends (names, versions, zones, operators). */
export const SHORT_TEXT_MAX = 255;
/** Clients one staff notification names (absent means all clients). */
export const NOTIFY_CLIENTS_MAX = 1000;
