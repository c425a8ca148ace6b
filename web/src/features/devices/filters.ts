import { z } from 'zod/mini';
import { DEVICE_COMMAND_STATES, LOG_LEVELS, METRIC_SCOPES, SERVICES } from '#shared/constants/devices.ts';

/**
 * URL search schemas of the device screens. Every field is optional and falls back to "unset" on junk
 * (`z.catch(…, undefined)`), so a hand-edited or stale link shows the unfiltered list instead of an error page.
 * Values stay the strings the API reads (its query is wire text), so they go to the query as they are.
 */

/**
 * Free text. The router reads search values as JSON where it can, so `?group=123` arrives as the number 123: numbers
 * are taken back as their text.
 */
const optionalText = (max = 255) =>
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
const optionalDay = z.catch(z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))), undefined);
/** A yes/no filter (the router reads `?active_only=true` as the boolean); sent to the API as its text. */
const optionalFlag = z.catch(z.optional(z.boolean()), undefined);

export const DevicesSearch = z.object({
  active_only: optionalFlag,
  search: optionalText(),
  group: optionalText(),
  device_user_reference: optionalText(60),
  service: z.catch(z.optional(z.enum(SERVICES)), undefined),
});
export type DevicesSearch = z.infer<typeof DevicesSearch>;

export const DeviceLogsSearch = z.object({
  log_level: z.catch(z.optional(z.enum(LOG_LEVELS)), undefined),
  device_reference: optionalText(),
  group: optionalText(),
  from: optionalDay,
  to: optionalDay,
});
export type DeviceLogsSearch = z.infer<typeof DeviceLogsSearch>;

export const DeviceMetricsSearch = z.object({
  scope: z.catch(z.optional(z.enum(METRIC_SCOPES)), undefined),
  device_reference: optionalText(),
  from: optionalDay,
  to: optionalDay,
});
export type DeviceMetricsSearch = z.infer<typeof DeviceMetricsSearch>;

export const DeviceDetailSearch = z.object({
  command_state: z.catch(z.optional(z.enum(DEVICE_COMMAND_STATES)), undefined),
  telemetry_from: optionalDay,
  telemetry_to: optionalDay,
});
export type DeviceDetailSearch = z.infer<typeof DeviceDetailSearch>;

export const DeviceGpsSearch = z.object({ from: optionalDay, to: optionalDay });
export type DeviceGpsSearch = z.infer<typeof DeviceGpsSearch>;

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
