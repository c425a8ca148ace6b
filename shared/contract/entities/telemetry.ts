import { z } from 'zod';
import { CountryCode } from '../fields.ts';
import { Timestamp } from './common.ts';

/**
 * Device telemetry (spec point 3: "the full field list is not shown"). We name the fields we rely on and keep
 * every object loose, so newer app versions may add fields without a contract change:
 * - health: battery, storage, wifi, SIM, Knox and permission flags;
 * - installed applications with per-app network stats;
 * - telecom: network and SIM operator and country, default apps, signal strength.
 */
export const AppNetworkStats = z.looseObject({
  rx_bytes: z.number().min(0).optional(),
  tx_bytes: z.number().min(0).optional(),
  wifi_rx_bytes: z.number().min(0).optional(),
  wifi_tx_bytes: z.number().min(0).optional(),
  mobile_rx_bytes: z.number().min(0).optional(),
  mobile_tx_bytes: z.number().min(0).optional(),
});

export const InstalledApplication = z.looseObject({
  package_name: z.string(),
  simple_name: z.string().optional(),
  is_system_app: z.boolean().optional(),
  size: z.number().min(0).optional(),
  uid: z.number().optional(),
  network_stats: AppNetworkStats.optional(),
});

export const DeviceHealth = z.looseObject({
  battery_level: z.number().min(0).max(100).optional(),
  is_charging: z.boolean().optional(),
  storage_total_bytes: z.number().min(0).optional(),
  storage_free_bytes: z.number().min(0).optional(),
  wifi_enabled: z.boolean().optional(),
  wifi_connected: z.boolean().optional(),
  sim_state: z.string().optional(),
  knox_enabled: z.boolean().optional(),
  knox_version: z.string().optional(),
  /** Permission name to granted flag (e.g. RECORD_AUDIO, READ_SMS). */
  permissions: z.record(z.string(), z.boolean()).optional(),
});

export const TelecomStats = z.looseObject({
  network_operator: z.string().optional(),
  network_operator_name: z.string().optional(),
  network_country: z.string().optional(),
  /**
   * The serving network's country calling code (spec CountryCode, 1–99), which the app reads with the operator. With
   * `network_operator` (MCC+MNC) and its name it records a carrier sighting for the internal console's countries.
   */
  network_country_code: CountryCode.optional(),
  sim_operator: z.string().optional(),
  sim_operator_name: z.string().optional(),
  sim_country: z.string().optional(),
  default_dialer: z.string().optional(),
  default_sms_app: z.string().optional(),
  signal_strength: z.number().optional(),
});

/** The decrypted telemetry meta a device sends. */
export const TelemetryMeta = z.looseObject({
  collected_at: z.string(),
  health: DeviceHealth.optional(),
  applications: z.array(InstalledApplication).optional(),
  telecom: TelecomStats.optional(),
});
export type TelemetryMeta = z.infer<typeof TelemetryMeta>;

export const DeviceTelemetry = z.looseObject({
  client: z.string().optional(),
  device_reference: z.string(),
  device_user_reference: z.string().optional(),
  group: z.string().optional(),
  received_at: Timestamp,
  collected_at: Timestamp.optional(),
  health: DeviceHealth.optional(),
  applications: z.array(InstalledApplication).optional(),
  telecom: TelecomStats.optional(),
});
export type DeviceTelemetry = z.infer<typeof DeviceTelemetry>;
