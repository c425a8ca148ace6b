import { ALERT_SEVERITIES, type AlertScope, type AlertSeverity, type AlertType } from '#shared/constants/alerts.ts';
import type { AlertSummary, BulkResult } from '#shared/contract/entities/alerts.ts';
import { ALERT_SCOPE_LABELS } from '../../lib/labels.ts';

/** What the two scopes are called on screen (the portal's one label map). */
export const SCOPE_LABELS: Record<AlertScope, string> = ALERT_SCOPE_LABELS;

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

/** Totals per severity (both scopes together), highest first, leaving out severities with none. */
export function summaryTotals(summary: readonly AlertSummary[]): { total: number; bySeverity: [AlertSeverity, number][] } {
  const counts = new Map<AlertSeverity, number>();
  for (const entry of summary) counts.set(entry.severity, (counts.get(entry.severity) ?? 0) + entry.count);
  const bySeverity = [...ALERT_SEVERITIES]
    .reverse()
    .map((severity) => [severity, counts.get(severity) ?? 0] as [AlertSeverity, number])
    .filter(([, count]) => count > 0);
  return { total: bySeverity.reduce((sum, [, count]) => sum + count, 0), bySeverity };
}
