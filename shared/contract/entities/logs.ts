import * as z from 'zod';
import { LogLevel } from '../../constants/devices.ts';
import { DateTimeIso, LogMessage } from '../fields.ts';
import { LOG_BATCH_MAX, SHORT_TEXT_MAX } from '../bounds.ts';
import { itemsAtLeast, itemsBetween, lengthAtMost } from '../messages.ts';
import { Timestamp } from './common.ts';

export const DeviceLog = z.object({
  log_id: z.string(),
  device_reference: z.string().optional(),
  device_user_reference: z.string().optional(),
  group: z.string().optional(),
  log_class: z.string().optional(),
  log_level: LogLevel,
  log_datetime: Timestamp,
  local_timezone: z.string().optional(),
  payload_reference: z.string().optional(),
  log_message: z.string(),
});
export type DeviceLog = z.infer<typeof DeviceLog>;

/** One log line as a device uploads it. */
export const DeviceLogEntry = z.strictObject({
  log_class: z.string().max(SHORT_TEXT_MAX, { error: lengthAtMost(SHORT_TEXT_MAX) }).optional(),
  log_level: LogLevel,
  log_datetime: DateTimeIso,
  local_timezone: z.string().max(64).optional(),
  payload_reference: z.string().max(36).optional(),
  log_message: LogMessage,
});
export type DeviceLogEntry = z.infer<typeof DeviceLogEntry>;

/** Device log upload: at least 1 log (at most 1000 per request, our decision to bound the request size). */
export const DeviceLogUpload = z.strictObject({
  logs: z.array(DeviceLogEntry).min(1, { error: itemsAtLeast(1) }).max(LOG_BATCH_MAX, { error: itemsBetween(1, LOG_BATCH_MAX) }),
});
export type DeviceLogUpload = z.infer<typeof DeviceLogUpload>;
