import { z } from 'zod/mini';
import { DEVICE_COMMAND_STATES, LOG_LEVELS, METRIC_SCOPES, SERVICES } from '#shared/constants/devices.ts';
import { optionalDay, optionalFlag, optionalText } from '../../lib/search-params.ts';

/** URL search schemas of the device screens (see lib/search-params.ts for how a field treats junk). */

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
