import type { RuntimeConfig } from '../config.ts';

/**
 * Browser monitoring with aws-rum-web (spec point 7): started once, after the profile loads, and only when its three
 * settings are supplied; never in local mode. The library is imported on demand, so a portal without monitoring
 * never downloads it. A failure to start is only logged (spec point 8).
 */
export interface MonitoringSettings {
  applicationId: string;
  region: string;
  config: Record<string, unknown>;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The settings to start with, or undefined when monitoring must stay off. */
export function monitoringSettings(config: RuntimeConfig, hostname: string): MonitoringSettings | undefined {
  const mode = config.mode ?? (LOOPBACK.has(hostname) ? 'local' : 'aws');
  if (mode === 'local') return undefined;
  if (config.rumApplicationId === undefined || config.rumRegion === undefined || config.rumConfig === undefined) return undefined;
  return { applicationId: config.rumApplicationId, region: config.rumRegion, config: config.rumConfig };
}

let started = false;

/** Starts monitoring once per page; later calls do nothing. */
export async function startMonitoring(settings: MonitoringSettings | undefined, version: string): Promise<void> {
  if (started || settings === undefined) return;
  started = true;
  try {
    const { AwsRum } = await import('aws-rum-web');
    // Cookies stay off unless the deployment's client configuration says otherwise (spec point 9's default).
    new AwsRum(settings.applicationId, version, settings.region, { allowCookies: false, ...settings.config });
  } catch (error) {
    console.warn('Verity: browser monitoring could not start', error);
  }
}
