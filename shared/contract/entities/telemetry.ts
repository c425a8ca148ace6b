import * as z from 'zod';
import { FREE_FORM_KEYS_MAX, SHORT_TEXT_MAX, TELEMETRY_APPLICATIONS_MAX } from '../bounds.ts';
import { boundedRecord, CountryCode, openObject, safeNumber, SafeNumber } from '../fields.ts';
import { itemsAtMost, lengthAtMost } from '../messages.ts';
import { Timestamp } from './common.ts';

/**
 * Device telemetry (spec point 3: "the full field list is not shown"). We name the fields we rely on and keep
 * every object open, so newer app versions may add fields without a contract change (each unknown field a bounded
 * FreeFormValue; every number safe, every text and list bounded, so a report always fits its item):
 * - health: battery, storage, wifi, SIM, Knox and permission flags;
 * - installed applications with per-app network stats;
 * - telecom: network and SIM operator and country, default apps, signal strength.
 */
const shortText = z.string().max(SHORT_TEXT_MAX, { error: lengthAtMost(SHORT_TEXT_MAX) });

export const AppNetworkStats = openObject({
  rx_bytes: safeNumber(0).optional(),
  tx_bytes: safeNumber(0).optional(),
  wifi_rx_bytes: safeNumber(0).optional(),
  wifi_tx_bytes: safeNumber(0).optional(),
  mobile_rx_bytes: safeNumber(0).optional(),
  mobile_tx_bytes: safeNumber(0).optional(),
});

export const InstalledApplication = openObject({
  package_name: shortText,
  simple_name: shortText.optional(),
  is_system_app: z.boolean().optional(),
  size: safeNumber(0).optional(),
  uid: SafeNumber.optional(),
  network_stats: AppNetworkStats.optional(),
});

export const DeviceHealth = openObject({
  battery_level: safeNumber(0, 100).optional(),
  is_charging: z.boolean().optional(),
  storage_total_bytes: safeNumber(0).optional(),
  storage_free_bytes: safeNumber(0).optional(),
  wifi_enabled: z.boolean().optional(),
  wifi_connected: z.boolean().optional(),
  sim_state: shortText.optional(),
  knox_enabled: z.boolean().optional(),
  knox_version: shortText.optional(),
  /** Permission name to granted flag (e.g. RECORD_AUDIO, READ_SMS). */
  permissions: boundedRecord(z.boolean(), FREE_FORM_KEYS_MAX, SHORT_TEXT_MAX).optional(),
});

export const TelecomStats = openObject({
  network_operator: shortText.optional(),
  network_operator_name: shortText.optional(),
  network_country: shortText.optional(),
  /**
   * The serving network's country calling code (spec CountryCode, 1–99), which the app reads with the operator. With
   * `network_operator` (MCC+MNC) and its name it records a carrier sighting for the internal console's countries.
   */
  network_country_code: CountryCode.optional(),
  sim_operator: shortText.optional(),
  sim_operator_name: shortText.optional(),
  sim_country: shortText.optional(),
  default_dialer: shortText.optional(),
  default_sms_app: shortText.optional(),
  signal_strength: SafeNumber.optional(),
});

/** The decrypted telemetry meta a device sends (at most 1000 installed applications). */
export const TelemetryMeta = openObject({
  collected_at: shortText,
  health: DeviceHealth.optional(),
  applications: z.array(InstalledApplication).max(TELEMETRY_APPLICATIONS_MAX, { error: itemsAtMost(TELEMETRY_APPLICATIONS_MAX) }).optional(),
  telecom: TelecomStats.optional(),
});
export type TelemetryMeta = z.infer<typeof TelemetryMeta>;

/** A stored report as the API answers it (a response: loose, so older reports still read). */
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
