import { z } from 'zod/mini';

/**
 * Building blocks of the screens' URL search schemas. Every field is optional and falls back to "unset" on junk
 * (`z.catch(…, undefined)`), so a hand-edited or stale link shows the unfiltered list instead of an error page.
 * Values stay the strings the API reads (its query is wire text), so they go to the query as they are.
 */

/**
 * Free text. The router reads search values as JSON where it can, so `?group=123` arrives as the number 123: numbers
 * are taken back as their text.
 */
export const optionalText = (max = 255) =>
  z.catch(
    z.optional(
      z.pipe(
        z.union([z.string(), z.number()]),
        z.pipe(
          z.transform((value: string | number) => String(value).trim()),
          z.string().check(z.minLength(1), z.maxLength(max)),
        ),
      ),
    ),
    undefined,
  );
/** A calendar day as `<input type="date">` gives it; the API's DateTimeParam takes it as is. */
export const optionalDay = z.catch(z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))), undefined);
/** A yes/no filter (the router reads `?active_only=true` as the boolean); sent to the API as its text. */
export const optionalFlag = z.catch(z.optional(z.boolean()), undefined);

/**
 * A query with every unset or blank value left out. The API's queries are strict and refuse `search=` (too short),
 * so an emptied filter must disappear, not travel as an empty string. Values are trimmed.
 */
export function compactQuery<T extends Record<string, string | undefined>>(values: T): { [K in keyof T]?: NonNullable<T[K]> } {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const trimmed = value?.trim();
    if (trimmed) query[key] = trimmed;
  }
  return query as { [K in keyof T]?: NonNullable<T[K]> };
}

/** A date range whose start is after its end: the API refuses it, so the screen says so before asking. */
export function invertedRange(from: string | undefined, to: string | undefined): boolean {
  return from !== undefined && to !== undefined && from > to;
}
