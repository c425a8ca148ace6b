/**
 * DynamoDB's own count of an item's size, after the rules it publishes: strings count their UTF-8 bytes, numbers one
 * byte per two significant digits plus one, booleans and null one byte, lists and maps three bytes plus one byte per
 * element (and a map element its name's bytes). Attribute names count at the top level too. Used to prove the
 * contract's bounds keep every valid item under the limit, and to name the attribute that made an item too big.
 */

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

function numberSize(value: number): number {
  const digits = Math.abs(value)
    .toExponential()
    .replace(/e.*$/, '')
    .replace(/[^0-9]/g, '')
    .replace(/0+$/, '');
  return Math.max(1, Math.ceil(digits.length / 2)) + 1;
}

/** The bytes DynamoDB counts for one attribute value (undefined counts nothing: the document client drops it). */
export function valueSize(value: unknown): number {
  if (value === undefined) return 0;
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8Bytes(value);
  if (typeof value === 'number') return numberSize(value);
  if (typeof value === 'bigint') return numberSize(Number(value));
  if (value instanceof Uint8Array) return value.byteLength;
  if (Array.isArray(value)) return 3 + value.reduce((total: number, element) => total + 1 + valueSize(element), 0);
  if (value instanceof Set) return [...value].reduce((total: number, element) => total + valueSize(element), 0);
  if (typeof value === 'object') {
    return (
      3 +
      Object.entries(value).reduce(
        (total, [name, element]) => (element === undefined ? total : total + 1 + utf8Bytes(name) + valueSize(element)),
        0,
      )
    );
  }
  return utf8Bytes(String(value));
}

/** The size DynamoDB counts for a whole item: each attribute's name and value. */
export function itemSize(item: Record<string, unknown>): number {
  return Object.entries(item).reduce((total, [name, value]) => (value === undefined ? total : total + utf8Bytes(name) + valueSize(value)), 0);
}

/** The attribute of an item that takes the most bytes (undefined for an empty item). */
export function largestAttribute(item: Record<string, unknown>): string | undefined {
  let largest: { name: string; size: number } | undefined;
  for (const [name, value] of Object.entries(item)) {
    const size = utf8Bytes(name) + valueSize(value);
    if (largest === undefined || size > largest.size) largest = { name, size };
  }
  return largest?.name;
}
