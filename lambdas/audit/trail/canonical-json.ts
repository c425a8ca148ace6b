/**
 * The two halves of a hash that must survive storage: `toStorableJson` turns any value into the plain JSON the table
 * stores and returns unchanged, and `canonicalJson` spells such a value as one exact string (object keys sorted), so
 * the hash computed before a write equals the hash recomputed from what a read returns.
 */

/** Plain JSON: what DynamoDB's document client stores and reads back as the same value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Beyond this nesting a value is replaced by a marker: DynamoDB nests at most 32 levels, and cycles end here. */
const MAX_DEPTH = 16;
const TOO_DEEP = '[too deep]';
/** DynamoDB numbers carry 38 digits from 1e-130 to 1e126; JS numbers outside the safe range do not round-trip. */
const SMALLEST_NUMBER = 1e-100;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** UTF-8 cannot carry a lone surrogate: the store would write U+FFFD and the hash would no longer match. */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

function storableNumber(value: number): Json {
  if (!Number.isFinite(value)) return null;
  const magnitude = Math.abs(value);
  // The document client refuses numbers beyond the safe integer range; tiny ones underflow DynamoDB.
  if (magnitude > Number.MAX_SAFE_INTEGER || (magnitude !== 0 && magnitude < SMALLEST_NUMBER)) return String(value);
  return Object.is(value, -0) ? 0 : value;
}

function storable(value: unknown, depth: number): Json | undefined {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
      return wellFormed(value);
    case 'boolean':
      return value;
    case 'number':
      return storableNumber(value);
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return storable(withJson.toJSON(), depth + 1);
  if (Array.isArray(value)) return value.map((entry) => storable(entry, depth + 1) ?? null);
  if (value instanceof Map) return storable(Object.fromEntries(value), depth);
  if (value instanceof Set) return storable([...value], depth);
  const result: { [key: string]: Json } = {};
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    const converted = storable(entry, depth + 1);
    // DynamoDB map keys must not be empty.
    if (converted !== undefined) result[key.length === 0 ? '(empty)' : wellFormed(key)] = converted;
  }
  return result;
}

/**
 * Any value as plain JSON that the table round-trips exactly: undefined dropped (in objects) or null (in arrays),
 * non-finite numbers null, unsafe or tiny numbers as text, BigInt as text, lone surrogates U+FFFD, Dates by `toJSON`,
 * nesting cut at 16 levels (cycles included). Never throws.
 */
export function toStorableJson(value: unknown): Json | undefined {
  return storable(value, 0);
}

/** Code-unit order, the same in every runtime (localeCompare is not). */
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One exact spelling of a JSON value: object keys sorted by code unit, no whitespace, strings and numbers as
 * JSON.stringify writes them. Two values that are equal as JSON have the same canonical text.
 */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .sort(byCodeUnit)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as Json)}`);
  return `{${entries.join(',')}}`;
}
