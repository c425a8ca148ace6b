import * as z from 'zod';

/** Licensed services (spec point 9); a device or device user holds a subset. */
export const SERVICES = ['calls', 'interviews', 'gps', 'photos', 'mms', 'rcs', 'sms', 'videos'] as const;
export const Service = z.enum(SERVICES);
export type Service = z.infer<typeof Service>;

export const DEVICE_COMMANDS = [
  'sync_data',
  'diagnostics_upload',
  'reupload_sms_messages',
  'sms_auto_response',
  'remove_device_admin',
  'send_verification_sms',
  'allow_factory_reset',
  'allow_power_off',
] as const;
export const DeviceCommandName = z.enum(DEVICE_COMMANDS);
export type DeviceCommandName = z.infer<typeof DeviceCommandName>;

export const DEVICE_COMMAND_STATES = ['Sent', 'Acknowledged', 'Completed', 'Failed'] as const;
export const DeviceCommandState = z.enum(DEVICE_COMMAND_STATES);
export type DeviceCommandState = z.infer<typeof DeviceCommandState>;

/** The states a device itself may report for a command (Sent is the server's). */
export const DEVICE_REPORTABLE_COMMAND_STATES = ['Acknowledged', 'Completed', 'Failed'] as const;
export const DeviceReportableCommandState = z.enum(DEVICE_REPORTABLE_COMMAND_STATES);
export type DeviceReportableCommandState = z.infer<typeof DeviceReportableCommandState>;

/** Computed on device authentication from the installation id the device sends. */
export const INSTALL_STATES = ['NewInstall', 'FactoryReset', 'NoChange', 'NoInstallationId'] as const;
export const InstallState = z.enum(INSTALL_STATES);
export type InstallState = z.infer<typeof InstallState>;

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export const LogLevel = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevel>;

/** Device payload metric aggregation scopes (default Summary). */
export const METRIC_SCOPES = ['Daily', 'Weekly', 'Monthly', 'Yearly', 'Summary'] as const;
export const MetricScope = z.enum(METRIC_SCOPES);
export type MetricScope = z.infer<typeof MetricScope>;

/** List result type: a page of records (default) or only the total count. */
export const RESULT_TYPES = ['page', 'total'] as const;
export const ResultType = z.enum(RESULT_TYPES);
export type ResultType = z.infer<typeof ResultType>;
