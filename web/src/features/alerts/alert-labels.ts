import type { AlertScope, AlertSeverity, AlertType } from '#shared/constants/alerts.ts';
import type { BulkResult } from '#shared/contract/entities/alerts.ts';

/** What the two scopes are called on screen. */
export const SCOPE_LABELS: Record<AlertScope, string> = { ops: 'Operational', sec: 'Security' };

export const SEVERITY_COLOURS: Record<AlertSeverity, string> = { High: 'red', Medium: 'orange', Low: 'blue' };

/** "DeviceUserAlert" reads "Device user alert". */
export function alertTypeLabel(type: AlertType): string {
  const words = type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "1 alert" / "3 alerts". */
export const alertCount = (count: number): string => `${count} ${count === 1 ? 'alert' : 'alerts'}`;

/**
 * What a bulk clear or dismiss did, in words: how many worked, and for each that did not, its reference and the
 * server's reason. `ok` false when any failed, so the screen shows it as a warning rather than a success.
 */
export function describeBulkResult(result: BulkResult, done: string): { ok: boolean; message: string } {
  const failed = result.data.filter((entry) => !entry.ok);
  const succeeded = result.data.length - failed.length;
  const head = `${alertCount(succeeded)} ${done}.`;
  if (failed.length === 0) return { ok: true, message: head };
  const reasons = failed.map((entry) => `${entry.reference}: ${entry.message ?? 'refused'}`).join('\n');
  return { ok: false, message: `${head} ${failed.length} could not be: \n${reasons}` };
}

/** Related-entity links are portal paths; anything else (an absolute URL) is not followed from an alert. */
export function isPortalLink(link: string | undefined): link is string {
  return link !== undefined && link.startsWith('/dashboard/') && !link.startsWith('//');
}
