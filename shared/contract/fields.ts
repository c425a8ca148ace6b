import * as z from 'zod';
import {
  BULK_LIMIT,
  CALL_PARTIES_LIMIT,
  DEFAULT_EXPECTED_DEVICE_COUNT,
  INTERVIEW_PAUSE_TIMES_LIMIT,
  LICENCE_LIMIT_MAX,
  LICENCE_LIMIT_MIN,
  TAG_VALUE_MAX_LENGTH,
} from '../constants/limits.ts';
import { Service, SERVICES } from '../constants/devices.ts';
import {
  CIDR_RANGES_MAX,
  FREE_FORM_ITEMS_MAX,
  FREE_FORM_KEYS_MAX,
  FREE_FORM_TEXT_MAX,
  LOCATION_MAX,
  LOG_MESSAGE_MAX,
  PGP_KEY_MAX,
  SAFE_NUMBER_MAX,
  SAFE_NUMBER_MIN_MAGNITUDE,
  SEALED_META_MAX_CHARS,
  URL_MAX,
  WRAPPED_KEY_MAX_CHARS,
} from './bounds.ts';
import {
  itemsAtLeast,
  itemsAtMost,
  itemsBetween,
  keysAtMost,
  lengthAtLeast,
  lengthAtMost,
  lengthBetween,
  MESSAGES,
  numberAtLeast,
  numberBetween,
} from './messages.ts';

/**
 * Shared field types (spec point 3) and validation rules (spec point 5), each with its friendly message.
 * Length bounds are inclusive. Messages are set on the schema so `formatIssues` keeps them word for word.
 */

// ---------------------------------------------------------------- printable text and references

/**
 * The rule for every text the contract takes, said once here. FREE TEXT (descriptions, comments, names, messages…)
 * refuses NUL, unpaired surrogates and the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
 * would hide or reorder what a reader sees. A REFERENCE (every `*_reference` and key: roles, groups, tags, device
 * users, transfer configurations…) becomes a path segment in deliveries, a file name in exports and a link in the
 * portal, so it also refuses every control character (C0, DEL, C1), `/`, `\` and a leading or trailing space, and is
 * normalised to NFC first, so that one name has one spelling (and one key).
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/u;
const CONTROL_CHARACTERS = /\p{Cc}/u;
/** With the `u` flag a well-formed pair is one code point, so only an unpaired surrogate is category Cs. */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** Free text: no NUL, no unpaired surrogate, no bidirectional override or isolate. */
export const isPrintableText = (value: string): boolean => !value.includes('\u0000') && !UNPAIRED_SURROGATE.test(value) && !BIDI_CONTROLS.test(value);

/** A reference: printable text without control characters, `/` or `\`, and without a leading or trailing space. */
export const isPrintableReference = (value: string): boolean =>
  isPrintableText(value) && !CONTROL_CHARACTERS.test(value) && !/[/\\]/.test(value) && !/^\s|\s$/u.test(value);

/** A string of `min` to `max` characters (inclusive) with the friendly length message; free text, so printable. */
export const text = (min: number, max?: number) =>
  (max === undefined
    ? z.string().min(min, { error: lengthAtLeast(min) })
    : z
        .string()
        .min(min, { error: lengthBetween(min, max) })
        .max(max, { error: lengthBetween(min, max) })
  ).refine(isPrintableText, { error: MESSAGES.printableText });

/**
 * A reference of `min` to `max` characters: NFC-normalised, then the printable-reference rule. `own` is a rule the
 * spec gives the field (device references, device user references, app names); when it fails, its message alone is
 * shown (it already says what is wrong), so one problem gives one line.
 */
export const reference = (min: number, max: number, own?: { pattern: RegExp; error: string }) => {
  const sized = z
    .string()
    .normalize('NFC')
    .min(min, { error: lengthBetween(min, max) })
    .max(max, { error: lengthBetween(min, max) });
  const ruled = own === undefined ? sized : sized.regex(own.pattern, { error: own.error, abort: true });
  return ruled.refine(isPrintableReference, { error: MESSAGES.reference });
};

/** Integer at least `min` (and at most `max`), with one friendly message for every failure but a wrong type. */
export const integer = (min: number, max?: number) => {
  const base = z.int();
  const message = max === undefined ? numberAtLeast(min) : numberBetween(min, max);
  return max === undefined ? base.min(min, { error: message }) : base.min(min, { error: message }).max(max, { error: message });
};

/**
 * Any finite number a JavaScript client and the DynamoDB document client hold exactly: within ±(2^53 − 1). Bigger
 * magnitudes (`1e308`, `18446744073709551616`) lose precision on the way in and cannot be stored, so they are a 400;
 * so are magnitudes below 1e-130, which DynamoDB cannot store either.
 */
export const safeNumber = (min = -SAFE_NUMBER_MAX, max = SAFE_NUMBER_MAX) =>
  z
    .number()
    .min(min, { error: numberBetween(min, max) })
    .max(max, { error: numberBetween(min, max) })
    // DynamoDB stores no magnitude below 1e-130 (it refuses the write as an underflow).
    .refine((value) => value === 0 || Math.abs(value) >= SAFE_NUMBER_MIN_MAGNITUDE, { error: MESSAGES.numberUnderflow });
export const SafeNumber = safeNumber();

/** At most `max` keys: a bound JSON Schema shows as `maxProperties` (zod records and catch-alls have no own `max`). */
export const atMostKeys = <T extends z.ZodType>(schema: T, max: number): T =>
  schema
    .refine((value) => typeof value !== 'object' || value === null || Object.keys(value).length <= max, { error: keysAtMost(max) })
    .meta({ maxProperties: max }) as T;

/** A map of names (1 to `keyMax` characters) to values, with at most `maxKeys` keys. */
export const boundedRecord = <V extends z.ZodType>(value: V, maxKeys: number, keyMax = FREE_FORM_TEXT_MAX) =>
  atMostKeys(z.record(z.string().min(1, { error: lengthBetween(1, keyMax) }).max(keyMax, { error: lengthBetween(1, keyMax) }), value), maxKeys);

/** A free-form text value inside device meta. */
const FreeFormText = z.string().max(FREE_FORM_TEXT_MAX, { error: lengthAtMost(FREE_FORM_TEXT_MAX) });

/** A JSON value with every part bounded: text, safe numbers, booleans, null, short lists and small maps of these. */
export type FreeFormValue = string | number | boolean | null | FreeFormValue[] | { [key: string]: FreeFormValue };

/**
 * What a device may add to its meta beyond the named fields (newer app versions): any JSON, but every string, number,
 * list and map bounded. Nesting is held by the JSON parser (64 levels) and the sealed-upload check (12 levels).
 */
export const FreeFormValue: z.ZodType<FreeFormValue> = z.lazy(() =>
  z.union([
    FreeFormText,
    SafeNumber,
    z.boolean(),
    z.null(),
    z.array(FreeFormValue).max(FREE_FORM_ITEMS_MAX, { error: itemsAtMost(FREE_FORM_ITEMS_MAX) }),
    boundedRecord(FreeFormValue, FREE_FORM_KEYS_MAX),
  ]),
);

/** A free-form map (carrier metadata, app-defined extras): at most 200 keys of bounded values. */
export const FreeFormObject = boundedRecord(FreeFormValue, FREE_FORM_KEYS_MAX);

/**
 * An object with named fields that keeps unknown fields a newer app version adds, each a bounded FreeFormValue, at
 * most 200 keys in all. Used instead of `z.looseObject` wherever a device's meta is stored.
 */
export const openObject = <S extends z.ZodRawShape>(shape: S) => atMostKeys(z.object(shape).catchall(FreeFormValue), FREE_FORM_KEYS_MAX);

// ---------------------------------------------------------------- identifiers

/** ULID: 26 Crockford base-32 characters. */
export const Ulid = z.string().regex(/^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$/, { error: MESSAGES.ulid });
export type Ulid = z.infer<typeof Ulid>;

/**
 * Tenant (client) identifier in URLs. The spec does not define it; we decide: 2 to 63 lowercase letters, digits
 * or hyphens, starting with a letter or digit (DNS-label-like, so it can also name buckets and hosts). `admin` is
 * the provider's own client.
 */
export const ClientId = z.string().regex(/^[a-z0-9][a-z0-9-]{1,62}$/, { error: MESSAGES.clientId });
export type ClientId = z.infer<typeof ClientId>;

/** Names: 1 to 35 characters, no leading space or comma, no comma. */
const personName = text(1, 35).regex(/^[^ ,][^,]*$/, { error: MESSAGES.leadingSpaceOrComma });
export const FirstName = personName;
export type FirstName = z.infer<typeof FirstName>;
export const Surname = personName;
export type Surname = z.infer<typeof Surname>;

export const GroupReference = reference(2, 255);
export type GroupReference = z.infer<typeof GroupReference>;

export const RoleReference = reference(3, 35);
export type RoleReference = z.infer<typeof RoleReference>;

export const TagKey = reference(1, 60);
export type TagKey = z.infer<typeof TagKey>;

/** A tag value: at most 255 characters of printable text (the definition's enumeration is checked against the definition). */
export const TagValue = z
  .string()
  .max(TAG_VALUE_MAX_LENGTH, { error: lengthAtMost(TAG_VALUE_MAX_LENGTH) })
  .refine(isPrintableText, { error: MESSAGES.printableText });
export type TagValue = z.infer<typeof TagValue>;

/** Portal user reference (the identity provider's subject or user name). */
export const UserReference = reference(3, 255);
export type UserReference = z.infer<typeof UserReference>;

/** Device user reference: 3 to 60 characters; no leading space or comma; no comma. */
export const DeviceUserReference = reference(3, 60, { pattern: /^[^ ,][^,]*$/, error: MESSAGES.leadingSpaceOrComma });
export type DeviceUserReference = z.infer<typeof DeviceUserReference>;

/**
 * Device reference: no leading space; none of , + # / :. The spec gives no length; we bound it at 1 to 255
 * (devices issue ULIDs, 26 characters).
 */
export const DeviceReference = reference(1, 255, { pattern: /^[^ ,+#/:][^,+#/:]*$/, error: MESSAGES.deviceReference });
export type DeviceReference = z.infer<typeof DeviceReference>;

/** Client app reference: 3 to 60 characters; letters, digits and - _ . ! ( ); spaces only in the middle. */
export const AppReference = reference(3, 60, {
  pattern: /^[A-Za-z0-9\-_.!()](?:[A-Za-z0-9\-_.!() ]*[A-Za-z0-9\-_.!()])?$/,
  error: MESSAGES.appName,
});
export type AppReference = z.infer<typeof AppReference>;

export const PayloadReference = reference(26, 36);
export type PayloadReference = z.infer<typeof PayloadReference>;

export const TransferConfigReference = reference(3, 255);
export type TransferConfigReference = z.infer<typeof TransferConfigReference>;

/** A supervision policy's name, chosen by the tenant (3 to 60 printable characters, as app references). */
export const SupervisionPolicyReference = reference(3, 60);
export type SupervisionPolicyReference = z.infer<typeof SupervisionPolicyReference>;

/** Exactly 32 characters, or null. */
export const MessageId = text(32, 32).nullable();
export type MessageId = z.infer<typeof MessageId>;

/** The OAuth2 authorisation code (a UUID, 36 characters). */
export const OAuth2Code = text(36, 36);
export type OAuth2Code = z.infer<typeof OAuth2Code>;

/** At least 32 characters. */
export const UuidTimestamp = text(32);
export type UuidTimestamp = z.infer<typeof UuidTimestamp>;

/** Exactly 15 digits. */
export const Imei = z.string().regex(/^\d{15}$/, { error: MESSAGES.imei });
export type Imei = z.infer<typeof Imei>;

/** With country code; a second party may be a short code, so only the length is checked. Null when withheld. */
export const PhoneNumber = text(1, 255).nullable();
export type PhoneNumber = z.infer<typeof PhoneNumber>;

/** Without country code. */
export const PhoneNumberLocal = text(3, 255);
export type PhoneNumberLocal = z.infer<typeof PhoneNumberLocal>;

/** A device log line: 1 to 32768 characters (each line is its own item). */
export const LogMessage = text(1).max(LOG_MESSAGE_MAX, { error: lengthAtMost(LOG_MESSAGE_MAX) });
export type LogMessage = z.infer<typeof LogMessage>;

/** A pre-signed link; unset for aborted or blocked calls (no media). */
export const S3Url = z.url().optional();
export type S3Url = z.infer<typeof S3Url>;

/** An encrypted payload's meta, base64. */
export const PayloadMetaEncrypted = text(1, SEALED_META_MAX_CHARS).regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: MESSAGES.base64 });
export type PayloadMetaEncrypted = z.infer<typeof PayloadMetaEncrypted>;

/** Base64 of binary (wrapped keys, IVs). */
export const Base64 = text(1, WRAPPED_KEY_MAX_CHARS).regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: MESSAGES.base64 });
export type Base64 = z.infer<typeof Base64>;

/** SHA-256 as 64 hex characters (chain of custody from the device to the export manifest). */
export const Sha256Hex = z.string().regex(/^[0-9a-fA-F]{64}$/, { error: MESSAGES.sha256 });
export type Sha256Hex = z.infer<typeof Sha256Hex>;

/** A key id: KMS key ARN, alias or local key id. Alphanumeric with :/- (and _ . for aliases and UUIDs). */
export const KeyId = text(1, 2048).regex(/^[A-Za-z0-9:/_.-]+$/, { error: MESSAGES.alphanumericColonSlashDash });
export type KeyId = z.infer<typeof KeyId>;

/** Comma-delimited phone numbers. */
export const PartyNumbers = z.string();
export type PartyNumbers = z.infer<typeof PartyNumbers>;

/** Email: 3 to 255 characters, containing @ and a domain. */
export const Email = text(3, 255).regex(/^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/, { error: MESSAGES.email });
export type Email = z.infer<typeof Email>;

// ---------------------------------------------------------------- dates and numbers

const validCalendarDate = (value: string): boolean => {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};

/** YYYY-MM-DD, then T or a space, HH:MM:SS, optional fraction (milliseconds), optional Z. */
export const DateTimeIso = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}[T ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?Z?$/, { error: MESSAGES.isoDate })
  .refine(validCalendarDate, { error: MESSAGES.isoDate });
export type DateTimeIso = z.infer<typeof DateTimeIso>;

/** A date in a query: YYYY-MM-DD with an optional -HHMMSS. */
export const DateTimeParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(-([01]\d|2[0-3])[0-5]\d[0-5]\d)?$/, { error: MESSAGES.dateParam })
  .refine(validCalendarDate, { error: MESSAGES.dateParam });
export type DateTimeParam = z.infer<typeof DateTimeParam>;

/** Country calling code: integer 1 to 99. */
export const CountryCode = integer(1, 99);
export type CountryCode = z.infer<typeof CountryCode>;

export const QueryTotal = integer(0);
export type QueryTotal = z.infer<typeof QueryTotal>;

export const SmsLength = integer(0);
export type SmsLength = z.infer<typeof SmsLength>;

/** Call duration (seconds) and size (bytes): integers at least 0. */
export const NonNegativeInt = integer(0);
export type NonNegativeInt = z.infer<typeof NonNegativeInt>;

/** Expected device count: integer at least 0, default 1. */
export const ExpectedDeviceCount = integer(0).default(DEFAULT_EXPECTED_DEVICE_COUNT);
export type ExpectedDeviceCount = z.infer<typeof ExpectedDeviceCount>;

/** One service's licence limit: integer 0 to 100000. */
export const LicenceLimit = integer(LICENCE_LIMIT_MIN, LICENCE_LIMIT_MAX);
export type LicenceLimit = z.infer<typeof LicenceLimit>;

/** Retention period in days: at least 0. */
export const RetentionDays = integer(0);
export type RetentionDays = z.infer<typeof RetentionDays>;

// ---------------------------------------------------------------- network and access

const octetsAndPrefix = (value: string): boolean => {
  const [address = '', prefix = ''] = value.split('/');
  return address.split('.').every((octet) => Number(octet) <= 255) && Number(prefix) <= 32;
};

/** CIDR range: 1 to 4 dotted numbers, slash, 1 to 2 digits (octets at most 255, prefix at most 32). */
export const CidrRange = z
  .string()
  .regex(/^\d{1,3}(\.\d{1,3}){0,3}\/\d{1,2}$/, { error: MESSAGES.cidr })
  .refine(octetsAndPrefix, { error: MESSAGES.cidr });
export type CidrRange = z.infer<typeof CidrRange>;

/** At most 100 CIDR ranges (our bound). */
export const CidrRanges = z.array(CidrRange).max(CIDR_RANGES_MAX, { error: itemsAtMost(CIDR_RANGES_MAX) });
export type CidrRanges = z.infer<typeof CidrRanges>;

/**
 * OIDC issuer and JWKS URI. The spec writes "start with {host}": we read `{host}` as `https://` followed by the
 * identity provider's host, i.e. any https URL.
 */
export const HttpsUrl = z
  .string()
  .max(URL_MAX, { error: lengthAtMost(URL_MAX) })
  .startsWith('https://', { error: MESSAGES.https })
  .refine((value) => URL.canParse(value) && new URL(value).hostname.length > 0, { error: MESSAGES.https });
export type HttpsUrl = z.infer<typeof HttpsUrl>;

/** OIDC audience: at least 5 characters. */
export const OidcAudience = text(5).max(URL_MAX, { error: lengthAtMost(URL_MAX) });
export type OidcAudience = z.infer<typeof OidcAudience>;

/** A device service list: at least 1 service, no duplicates. */
export const ServiceList = z
  .array(Service)
  .min(1, { error: itemsAtLeast(1) })
  .max(SERVICES.length, { error: itemsBetween(1, SERVICES.length) })
  .refine((list) => new Set(list).size === list.length, { error: MESSAGES.unique });
export type ServiceList = z.infer<typeof ServiceList>;

/** 1 to `max` unique entries of `item` (bulk requests). */
export const uniqueList = <T extends z.ZodType>(item: T, min = 1, max = BULK_LIMIT) =>
  z
    .array(item)
    .min(min, { error: itemsBetween(min, max) })
    .max(max, { error: itemsBetween(min, max) })
    .refine((list) => new Set(list.map((entry) => JSON.stringify(entry))).size === list.length, {
      error: MESSAGES.unique,
    });

/** Bulk request: 1 to 100 unique alert references. */
export const AlertReferenceList = uniqueList(Ulid);
/** Bulk request: 1 to 100 unique payload references. */
export const PayloadReferenceList = uniqueList(PayloadReference);

/** Call second parties: 1 to 1000 (0 to 1000 for blocked calls). */
export const callPartiesList = <T extends z.ZodType>(item: T, blocked = false) =>
  z
    .array(item)
    .min(blocked ? 0 : 1, { error: itemsBetween(blocked ? 0 : 1, CALL_PARTIES_LIMIT) })
    .max(CALL_PARTIES_LIMIT, { error: itemsBetween(blocked ? 0 : 1, CALL_PARTIES_LIMIT) });

/** Interview pause times: 0 to 1000 entries. */
export const InterviewPauseTimes = z
  .array(NonNegativeInt)
  .max(INTERVIEW_PAUSE_TIMES_LIMIT, { error: itemsBetween(0, INTERVIEW_PAUSE_TIMES_LIMIT) });
export type InterviewPauseTimes = z.infer<typeof InterviewPauseTimes>;

// ---------------------------------------------------------------- transfers

/** The spec's S3 destination `{address}` is the `s3://` scheme: starts with s3://, at least 6 characters. */
export const S3Destination = z
  .string()
  .startsWith('s3://', { error: MESSAGES.s3Address })
  .min(6, { error: lengthAtLeast(6) })
  .max(LOCATION_MAX, { error: lengthAtMost(LOCATION_MAX) });
export type S3Destination = z.infer<typeof S3Destination>;

/** IAM role ARN with an account of 12 or more digits, at least 31 characters. */
export const IamRoleArn = z
  .string()
  .min(31, { error: MESSAGES.iamRoleArn })
  .max(LOCATION_MAX, { error: lengthAtMost(LOCATION_MAX) })
  .regex(/^arn:aws[a-z-]*:iam::\d{12,}:role\/[\w+=,.@/-]+$/, { error: MESSAGES.iamRoleArn });
export type IamRoleArn = z.infer<typeof IamRoleArn>;

/** SFTP root directory: starts with /. */
export const SftpRootDirectory = z
  .string()
  .max(LOCATION_MAX, { error: lengthAtMost(LOCATION_MAX) })
  .startsWith('/', { error: MESSAGES.leadingSlash });
export type SftpRootDirectory = z.infer<typeof SftpRootDirectory>;

const PGP_BLOCK = /^-----BEGIN PGP PUBLIC KEY BLOCK-----\r?\n[\s\S]*?[A-Za-z0-9+/=]{4,}[\s\S]*\r?\n-----END PGP PUBLIC KEY BLOCK-----$/;

/** An ASCII-armoured PGP public key block. */
export const PgpPublicKey = z.string().max(PGP_KEY_MAX, { error: lengthAtMost(PGP_KEY_MAX) }).refine((value) => PGP_BLOCK.test(value.trim()), { error: MESSAGES.pgpKey });
export type PgpPublicKey = z.infer<typeof PgpPublicKey>;

// ---------------------------------------------------------------- query-string helpers

/** Query booleans arrive as strings: only 'true' and 'false' are accepted. */
export const QueryBoolean = z.enum(['true', 'false'], { error: 'Must be true or false' }).transform((value) => value === 'true');

/** A query integer arriving as a string. */
export const queryInt = (min: number, max?: number) => z.coerce.number<string>().pipe(integer(min, max));
