import type { z } from 'zod';
import { RESPONSE_EXCERPT_LENGTH } from '../constants/limits.ts';

/**
 * The friendly messages of spec point 5. Those the spec quotes are word for word; where the spec only describes a
 * message ("valid email address", "ISO date", "must start with {address}"...), the wording below is our decision,
 * kept as close to the description as a sentence allows.
 */
export const MESSAGES = {
  cronOrRate: 'Must be a valid cron or rate expression',
  leadingSlash: 'Must start with a leading slash "/"',
  email: 'Must be a valid email address',
  alphanumericUnderscoreDotDash: 'Must be alphanumeric with _.-',
  alphanumericColonSlashDash: 'Must be alphanumeric with :/-',
  pgpKey: 'must be a valid PGP key',
  deviceReference: 'Cannot start with any of " ,+#/:", cannot include ",+#/:"',
  leadingSpaceOrComma: 'Cannot start with leading space, cannot contain a comma',
  appName: 'Must contain only letters, numbers, spaces and -_.!(), with no leading or trailing space',
  cidr: 'Must be a valid CIDR range',
  dateParam: 'Must be a date like 1999-01-01, or 1999-01-01-165000',
  isoDate: 'Must be an ISO date like 1999-01-01T16:50:00Z',
  https: 'Must start with https://',
  iamRoleArn: 'Must be a valid AWS IAM role ARN',
  /** The spec's `{address}` for the S3 transfer destination is the `s3://` scheme. */
  s3Address: 'Must start with s3://',
  /** A required-property failure as shown by the web client when the server gives no friendlier text. */
  required: 'required',
  ulid: 'Must be a valid ULID',
  base64: 'Must be a base64 string',
  sha256: 'Must be a SHA-256 hex digest',
  imei: 'Must be exactly 15 digits',
  unique: 'Must not contain duplicates',
  unknownField: 'This field is not allowed.',
  clientId: 'Must be 2 to 63 lowercase letters, digits or -, starting with a letter or digit',
  tagValueNotAllowed: 'Must be one of the values allowed by the tag definition',
  conditionNeedsProperty: 'A condition needs at least 1 property',
  requiredTagDefinition: 'A required tag needs a default value and a non-empty value list',
  invalidRegex: 'Must be a valid regular expression',
  invalid: 'Invalid value',
  numberUnderflow: 'Must be 0 or at least 1e-130 in size',
  /** References become path segments, file names and links (printable references, fields.ts). */
  reference: 'Cannot start or end with a space, cannot contain "/", "\\", control characters, text-direction overrides or unpaired surrogates',
  /** Free text is shown and exported as written (printable text, fields.ts). */
  printableText: 'Cannot contain NUL, text-direction overrides or unpaired surrogates',
} as const;

/** 'The {field} field is required.' (spec point 5, word for word). */
export const fieldRequired = (field: string): string => `The ${field} field is required.`;
/** 'Please provide a valid {type} for the field.' (spec point 5, word for word). */
export const provideValidType = (type: string): string => `Please provide a valid ${type} for the field.`;

export const lengthBetween = (min: number, max: number): string =>
  min === max ? `Must be exactly ${min} characters` : `Must be between ${min} and ${max} characters`;
export const lengthAtLeast = (min: number): string => `Must be at least ${min} ${min === 1 ? 'character' : 'characters'}`;
export const lengthAtMost = (max: number): string => `Must be at most ${max} characters`;
export const numberBetween = (min: number, max: number): string => `Must be a number between ${min} and ${max}`;
export const numberAtLeast = (min: number): string => `Must be at least ${min}`;
export const numberAtMost = (max: number): string => `Must be at most ${max}`;
export const itemsBetween = (min: number, max: number): string => `Must contain between ${min} and ${max} items`;
export const itemsAtLeast = (min: number): string => `Must contain at least ${min} ${min === 1 ? 'item' : 'items'}`;
export const itemsAtMost = (max: number): string => `Must contain at most ${max} items`;
/** A free-form object (a map of names to values) with too many keys. */
export const keysAtMost = (max: number): string => `Must have at most ${max} keys`;
export const oneOf = (values: readonly unknown[]): string => `Must be one of: ${values.map(String).join(', ')}`;

/** The prefix line used when nothing more specific explains a response-shape failure. */
export const UNEXPECTED_DATA = 'Unexpected data received.';

type Issue = z.core.$ZodIssue;

/** Zod's own default messages start like this; custom messages (ours) never do, so they are kept as they are. */
const ZOD_DEFAULT = /^(Invalid input|Invalid option|Invalid string|Invalid key|Invalid element|Invalid value|Too small|Too big|Invalid [a-zA-Z0-9_ -]+$|Unrecognized key)/;

/** Friendly names of zod's expected types in 'Please provide a valid {type} for the field.' */
const TYPE_NAMES: Record<string, string> = {
  int: 'integer',
  number: 'number',
  string: 'string',
  boolean: 'boolean',
  object: 'object',
  array: 'array',
  bigint: 'integer',
  date: 'date',
};

/** Translates one issue's message into the spec's friendly wording (custom messages pass through). */
function friendlyMessage(issue: Issue, fieldName: string): string {
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      // Zod reports a missing key as "expected X, received undefined"; that is the spec's required-field case.
      if (/received undefined$/.test(issue.message)) return fieldRequired(fieldName);
      return provideValidType(TYPE_NAMES[issue.expected] ?? issue.expected);
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return lengthAtLeast(min);
      if (issue.origin === 'array' || issue.origin === 'set') return itemsAtLeast(min);
      return issue.inclusive === false ? `Must be greater than ${min}` : numberAtLeast(min);
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return lengthAtMost(max);
      if (issue.origin === 'array' || issue.origin === 'set') return itemsAtMost(max);
      return issue.inclusive === false ? `Must be less than ${max}` : numberAtMost(max);
    }
    case 'invalid_value':
      return oneOf(issue.values);
    case 'invalid_format':
      if (issue.format === 'email') return MESSAGES.email;
      if (issue.format === 'ulid') return MESSAGES.ulid;
      if (issue.format === 'url') return 'Must be a valid URL';
      return `Must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `Must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return MESSAGES.unknownField;
    case 'invalid_key': {
      // A record's key failed its own schema (too long, empty): say why, as for any other value.
      const inner = issue.issues[0];
      return inner === undefined ? MESSAGES.invalid : friendlyMessage(inner as Issue, fieldName);
    }
    default:
      return MESSAGES.invalid;
  }
}

const joinPath = (prefix: string | undefined, path: readonly PropertyKey[]): string =>
  [...(prefix ? [prefix] : []), ...path.map((segment) => String(segment))].join('.');

/**
 * One `path: message` line per problem in a zod error, in the spec's friendly wording.
 *
 * - `prefix` names where the value came from (`params`, `query`, `body`); it starts every path, so a root issue
 *   reads `body: ...`. With no prefix and an empty path the line is the message alone.
 * - A missing field reads 'The {field} field is required.' where `{field}` is the wire name of the field (the last
 *   path segment, or the prefix for the root); a wrong type reads 'Please provide a valid {type} for the field.'
 * - Unknown keys on a strict object give one line per key: `body.colour: This field is not allowed.`
 * - Messages the schemas set themselves (the friendly messages of `fields.ts`) are kept word for word.
 * - Union failures report the issues of the closest branch when zod gives them, else one generic line.
 * - Identical lines are given once.
 */
export function formatIssues(error: { issues: readonly Issue[] }, prefix?: string): string[] {
  const lines: string[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) lines.push(`${joinPath(prefix, [...issue.path, key])}: ${MESSAGES.unknownField}`);
      continue;
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0 && ZOD_DEFAULT.test(issue.message)) {
      // Report the branch with the fewest problems: usually the one the caller meant.
      const best = [...issue.errors].sort((a, b) => a.length - b.length)[0] ?? [];
      if (best.length > 0) {
        const nested = best.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as Issue);
        lines.push(...formatIssues({ issues: nested }, prefix));
        continue;
      }
    }
    const path = joinPath(prefix, issue.path);
    const last = issue.path[issue.path.length - 1];
    const fieldName = last === undefined ? (prefix ?? 'input') : String(last);
    const message = friendlyMessage(issue, fieldName);
    lines.push(path ? `${path}: ${message}` : message);
  }
  // Two checks of one field can fail with the same friendly message (e.g. the length and pattern of an ARN).
  return [...new Set(lines)];
}

/**
 * The response-shape error text of spec point 5. Layout, lines joined with `\n`:
 *
 * ```
 * {prefix}
 * {one line per problem, as formatIssues gives them}
 * JSON: {first 200 characters of the response text}
 * ```
 *
 * With no detailed list (`issues` undefined or empty):
 *
 * ```
 * {prefix}
 * Unexpected data received.
 * {first 200 characters of the response text}
 * ```
 */
export function describeResponseMismatch(prefix: string, issues: string[] | undefined, responseText: string): string {
  const excerpt = responseText.slice(0, RESPONSE_EXCERPT_LENGTH);
  if (!issues || issues.length === 0) return [prefix, UNEXPECTED_DATA, excerpt].join('\n');
  return [prefix, ...issues, `JSON: ${excerpt}`].join('\n');
}
